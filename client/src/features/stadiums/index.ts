// What other features may use of the stadiums (docs/architecture.md, Layers).
export { StadiumManagement } from './StadiumManagement.js';
