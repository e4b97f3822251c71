import type { BeforeCommit } from '../db/store.js';
import type { Api, AppDeps } from '../http/context.js';
import type { NotifyHandlers } from '../notify/handlers.js';
import type { SyncCollection } from '../sync/collection.js';

/**
 * A synced collection in a folder of its own (docs/architecture.md, Adding a synced collection): one
 * file per layer — tables.ts and migrations/ (db), events.ts and domain.ts (domain), notify.ts,
 * routes.ts (http), sync.ts — and index.ts, which hands the parts the wiring needs to the app.
 */
export interface CollectionModule {
  readonly kind: 'collectionModule';
  /** The collection's name, as its shared declaration says. */
  readonly name: string;
  readonly sync: SyncCollection;
  /** Its REST routes. */
  readonly routes?: (app: Api, deps: AppDeps) => void;
  /** Whom its domain events reach by web push. */
  readonly notify?: NotifyHandlers;
  /** A step every transaction that took a seq runs before it commits (docs/architecture.md, One write convention). */
  readonly beforeCommit?: BeforeCommit;
}

export function defineCollectionModule(parts: Omit<CollectionModule, 'kind'>): CollectionModule {
  if (parts.sync.declaration.name !== parts.name)
    throw new Error(`The collection module ${parts.name} syncs ${parts.sync.declaration.name}`);
  return { kind: 'collectionModule', ...parts };
}

export const isCollectionModule = (value: unknown): value is CollectionModule =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'collectionModule';
