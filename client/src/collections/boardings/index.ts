// What other screens may use of the bus (docs/architecture.md, Layers).
export { BusOption } from './BusOption.js';
export { BoardingPage } from './BoardingPage.js';
export { tickBoarding, useBoardings } from './data.js';
