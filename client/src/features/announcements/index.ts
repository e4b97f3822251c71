// What other features may use of the announcements (docs/architecture.md, Layers).
export { Announcements } from './Announcements.js';
