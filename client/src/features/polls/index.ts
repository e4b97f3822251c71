// What other features may use of the polls (docs/architecture.md, Layers).
export { Polls } from './Polls.js';
