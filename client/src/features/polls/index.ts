// What other features may use of the polls (docs/architecture.md, Layers).
export { PollList, Polls, usePollList } from './Polls.js';
