import { z } from 'zod';

/*
 * Answers of the sync routes (server/src/sync/routes.ts; docs/architecture.md, "Sync"): documents
 * of any collection, each as its declaration in shared/src/docs says, or a tombstone.
 */

/** A document on the wire: a full document, or a tombstone of only id, seq and `_deleted`. */
export const syncDocument = z
  .looseObject({ id: z.string(), seq: z.number().int(), _deleted: z.boolean() })
  .meta({ id: 'SyncDocument' });

/** POST /api/sync/{collection}/{version}/pull: the documents after the checkpoint and the checkpoint to go on from. */
export const syncPullAnswer = z.strictObject({
  documents: z.array(syncDocument),
  checkpoint: z.strictObject({ seq: z.number().int() }).nullable(),
});
export type SyncPullAnswer = z.infer<typeof syncPullAnswer>;

/** GET /api/sync/{collection}/{version}/events/{eventId}: every document of the event the actor may see, tombstones included. */
export const syncEventAnswer = z.strictObject({ documents: z.array(syncDocument) });
export type SyncEventAnswer = z.infer<typeof syncEventAnswer>;

/** POST /api/sync/{collection}/{version}/push: the server's rows where they differ from what was sent (the conflicts). */
export const syncPushAnswer = z.array(syncDocument);
export type SyncPushAnswer = z.infer<typeof syncPushAnswer>;

/**
 * The new documents of a shared list since the batch before (docs/architecture.md, "The match-day
 * rush on one server"): exactly what a pull of the list after `from` answers, up to `to`.
 */
export const syncListTail = z.strictObject({
  from: z.number().int(),
  to: z.number().int(),
  documents: z.array(syncDocument),
});
export type SyncListTail = z.infer<typeof syncListTail>;

/**
 * A `change` event's data: the changed collections; the tails of the shared lists the device keeps,
 * by sync state (`events`, `attendees/others`); the device's own parts (`attendees/own`) in which
 * nothing changed. A device pulls what is named and neither carried nor unchanged.
 */
export const syncChangeEvent = z.looseObject({
  collections: z.array(z.string()),
  lists: z.record(z.string(), syncListTail).optional(),
  unchanged: z.array(z.string()).optional(),
});
export type SyncChangeEvent = z.infer<typeof syncChangeEvent>;

/** GET /api/sync/stream: server-sent events (`ready`, `change` with a SyncChangeEvent, `unauthorized`, `superseded`). */
export const syncStreamAnswer = z.string().meta({ description: 'text/event-stream' });
