import { jsonAnswer, negotiateEncoding } from '../http/compress.js';
import {
  SYNC_HEARTBEAT_MS,
  SYNC_PULL_LIMIT,
  syncEventAnswer,
  syncPullAnswer,
  syncPushAnswer,
  syncStreamAnswer,
  type SyncPullAnswer,
} from '@fankurve/shared';
import { write } from '../db/store.js';
import { badInput, DomainError } from '../domain/errors.js';
import type { Api, AppDeps } from '../http/context.js';
import { apiRoute, z } from '../http/openapi.js';
import { requireActor } from '../http/session.js';
import type { SyncCollection } from './collection.js';
import { eventPullQuerySchema, pullBodySchema, pushBodySchema } from './protocol.js';
import { pullBatch, pullContext, pullEventDocuments } from './pull.js';
import { SharedPulls } from './sharedPull.js';
import { applyPush } from './push.js';
import { openChangeStream } from './stream.js';
import { ChangeBatcher } from './changeBatch.js';

const tag = 'Sync';
const collectionParams = z.object({ collection: z.string().max(40), version: z.coerce.number().int().min(0) });
const eventParams = collectionParams.extend({ eventId: z.string().max(64) });

type Collections = ReadonlyMap<string, SyncCollection>;

/** The collection of the path; an unknown one is 404, an outdated schema version 426 (the client reloads). */
function resolveCollection(collections: Collections, params: { collection: string; version: number }): SyncCollection {
  const collection = collections.get(params.collection);
  if (!collection) throw new DomainError('unknownCollection', 404);
  if (collection.declaration.schema.version !== params.version) throw new DomainError('outdatedClient', 426);
  return collection;
}

/** The sync protocol's routes over `collections`, every synced collection by name (sync/registry.ts). */
export function syncRoutes(app: Api, deps: AppDeps, collections: Collections): void {
  // Every commit here and on other instances marks the shared lists of its collections stale.
  const sharedPulls = new SharedPulls(deps.store);
  deps.store.commits.subscribe(sharedPulls.onCommit, { remote: true });
  // One batch of changes for every stream, carrying the shared lists' new documents (sync/changeBatch.ts).
  const batches = new ChangeBatcher(deps.store, sharedPulls, collections);
  deps.changeStreams.subscribe(batches.onCommit, { remote: true });
  deps.changeStreams.onClose(() => batches.close());
  deps.warmUps.push(() => sharedPulls.warm(collections.values(), SYNC_PULL_LIMIT));

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/sync/{collection}/{version}/pull',
      tag,
      summary: 'RxDB pull: documents after a checkpoint',
      params: collectionParams,
      body: pullBodySchema,
      answers: { 200: syncPullAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const collection = resolveCollection(collections, c.req.valid('param'));
      const { checkpoint, limit, scope } = c.req.valid('json');
      const shared = await sharedPulls.pull(actor, collection, checkpoint, limit, pullContext(deps.store, collection, scope));
      // Text built from documents serialized once (sync/sharedPull.ts), so this answer goes unchecked like the events list's.
      if (shared) {
        const coding = negotiateEncoding(c.req.header('Accept-Encoding'));
        const encoded = coding === 'identity' ? null : shared.encoded(coding);
        // With a Content-Encoding the compression middleware leaves the answer as it is.
        const headers = {
          'Content-Type': 'application/json',
          Vary: 'Accept-Encoding',
          ...(encoded ? { 'Content-Encoding': coding } : {}),
        };
        const body = encoded ? await encoded : shared.json;
        return c.body(body as Uint8Array<ArrayBuffer>, 200, headers) as never;
      }
      // Made whole here (http/compress.ts, jsonAnswer): typed by the answer's schema instead of c.json.
      const answer: SyncPullAnswer = await pullBatch(deps.store, actor, collection, checkpoint, limit, scope);
      return jsonAnswer(c, answer) as never;
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/sync/{collection}/{version}/events/{eventId}',
      tag,
      summary: 'Every document of one event, tombstones included (for an event the device does not keep)',
      params: eventParams,
      answers: { 200: syncEventAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const params = c.req.valid('param');
      const collection = resolveCollection(collections, params);
      const query = eventPullQuerySchema.safeParse({ scope: c.req.query('scope') });
      if (!query.success) throw badInput();
      return c.json(await pullEventDocuments(deps.store, actor, collection, params.eventId, query.data.scope), 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/sync/{collection}/{version}/push',
      tag,
      summary: 'RxDB push: returns the conflicting master documents',
      params: collectionParams,
      body: pushBodySchema,
      answers: { 200: syncPushAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const collection = resolveCollection(collections, c.req.valid('param'));
      if (!collection.push) throw new DomainError('forbidden', 403);
      const rows = c.req.valid('json');
      return c.json(await write(deps.store, (w) => applyPush(w, actor, collection, rows)), 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/sync/stream',
      tag,
      summary: 'Server-sent events naming changed collections',
      answers: { 200: { schema: syncStreamAnswer, mediaType: 'text/event-stream' } },
    }),
    (c) => {
      const actor = requireActor(c);
      return openChangeStream(c, deps, batches, actor, deps.syncHeartbeatMs ?? SYNC_HEARTBEAT_MS);
    },
  );
}
