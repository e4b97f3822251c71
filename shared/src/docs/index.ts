/* The synced documents and their declarations; the collections' registry is registry.ts. */
export * from './common.js';
export * from './declaration.js';
export * from './events.js';
export * from './attendees.js';
export * from './members.js';
export * from './notices.js';
export * from './transports.js';
export * from './comments.js';
export * from './mentions.js';
export * from './ledger.js';
export * from './offers.js';
export * from './polls.js';
export * from './pollVotes.js';
