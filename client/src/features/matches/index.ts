// What other features may use of the match import (docs/architecture.md, Layers).
export { SyncMatchesButton } from './SyncMatchesButton.js';
export { TeamFinder } from './TeamFinder.js';
