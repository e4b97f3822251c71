// What other screens may use of the announcements (docs/architecture.md, Layers).
export { Announcements } from './Announcements.js';
export { useAnnouncements } from './data.js';
