/*
 * The server's collections in folders of their own, one line each (docs/architecture.md, Adding a
 * synced collection); each line exports the module its index.ts defines.
 */
export * from './announcements/index.js';
export * from './boardings/index.js';
export * from './rides/index.js';
