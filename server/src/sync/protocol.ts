import { PULL_SCOPES, SYNC_PULL_LIMIT, SYNC_PUSH_MAX_ROWS, type PullScope } from '@fankurve/shared';
import { z } from 'zod';

/** Checkpoints are the server's seq, never client clocks. */
export const checkpointSchema = z.object({ seq: z.number().int().min(0) }).nullable();
export type Checkpoint = z.infer<typeof checkpointSchema>;

const scopeSchema = z.enum(PULL_SCOPES as [PullScope, ...PullScope[]]);

export const pullBodySchema = z.object({
  checkpoint: checkpointSchema.optional().default(null),
  limit: z.number().int().min(1).max(SYNC_PULL_LIMIT).optional().default(200),
  /** Which documents: all, or for a collection split by owner the actor's own or the others'. */
  scope: scopeSchema.optional().default('all'),
});

/** The query of an event's documents: the same scopes as a pull. */
export const eventPullQuerySchema = z.object({ scope: scopeSchema.optional().default('all') });

const documentSchema = z.looseObject({
  id: z.string().min(1).max(64),
  _deleted: z.boolean().optional(),
});
export type PushedDocument = z.infer<typeof documentSchema>;

/** RxDB's push rows. */
export const pushBodySchema = z
  .array(
    z.object({
      assumedMasterState: documentSchema.nullish(),
      newDocumentState: documentSchema,
    }),
  )
  // RxDB pushes in batches of 100: a bigger push is no device of ours, and one member's push must not hold the writer for long.
  .max(SYNC_PUSH_MAX_ROWS, { error: 'tooManyChanges' });
export type PushRow = z.infer<typeof pushBodySchema>[number];

/** A document as it goes over the wire: a full document, or a tombstone of only id, seq and `_deleted`. */
export type SyncDocument = { id: string; seq: number; _deleted: boolean } & Record<string, unknown>;
