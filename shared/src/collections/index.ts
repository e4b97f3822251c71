/*
 * The collections that live in folders of their own, one line each (docs/architecture.md, Adding a
 * synced collection): each line exports the collection's collection.ts, whose definition the
 * registry (registry.ts) picks up. Its REST schemas are imported from its folder by its own routes
 * and its own client calls.
 */
export * from './announcements/collection.js';
export * from './boardings/collection.js';
export * from './rides/collection.js';
