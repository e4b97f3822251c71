/*
 * What other features may use of the statistics: the link to /stats. The page itself (with Chart.js)
 * is loaded lazily by the router, straight from its file, so no other page's chunk carries the charts.
 */
export { StatsLink } from './StatsLink.js';
