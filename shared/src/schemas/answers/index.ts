/* The answers of the REST routes, one file per area (docs/architecture.md, "REST answers"). */
export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './events.js';
export * from './attendance.js';
export * from './tickets.js';
export * from './transports.js';
export * from './announcements.js';
export * from './stadiums.js';
export * from './admin.js';
export * from './comments.js';
export * from './push.js';
export * from './config.js';
export * from './matches.js';
export * from './sync.js';
export * from './health.js';
