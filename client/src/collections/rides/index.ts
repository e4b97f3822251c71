// What other screens may use of the rides (docs/architecture.md, Layers).
export { MyRides } from './MyRides.js';
export { Rides } from './Rides.js';
export { cancelRide, changeRide, offerRide, useMyRides, useRides, type RideInput, type RideView } from './data.js';
