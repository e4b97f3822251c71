import { createHash } from 'node:crypto';
import type { MessageCode } from '@fankurve/shared';
import type { WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { badInput, conflict, DomainError, type ErrorStatus } from '../errors.js';

/*
 * Idempotency keys (docs/architecture.md, Ledger, "Manual entries"): a request that carries an
 * `Idempotency-Key` header is answered once. Its first answer (status and body, or the refusal's
 * code) is kept per user, route and key for a day; the same key again gets that answer and changes
 * nothing; the same key with another body is 409 `idempotencyKeyReused`. Writers serialise on the
 * seq counter (docs/architecture.md, One write convention), so of parallel requests with one key
 * the first books and the rest find its answer.
 */

/** How long a key's answer is kept. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** A key: 1 to 100 visible ASCII characters (a UUID, as the booking form sends, fits). */
const KEY_PATTERN = /^[\x21-\x7e]{1,100}$/;

export interface KeyedRequest {
  actor: Actor;
  /** The route, e.g. 'POST /api/ledger/entries'. */
  scope: string;
  /** The header's value; null without one (the request is then simply run). */
  key: string | null;
  /** The validated body: the same key with another body is refused. */
  body: unknown;
}

export interface KeptAnswer<Body> {
  status: number;
  body: Body;
}

/** The header's key, or null without one; 400 `idempotencyKeyInvalid` for an empty or too long or odd one. */
export function idempotencyKeyOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!KEY_PATTERN.test(header)) throw badInput('idempotencyKeyInvalid');
  return header;
}

const hashOf = (body: unknown) => createHash('sha256').update(JSON.stringify(body)).digest('base64url');

async function keep(w: WriteContext, request: KeyedRequest, status: number, answer: string): Promise<void> {
  if (request.key === null) return;
  await w.db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', request.actor.id)
    .where('created_at', '<', new Date(Date.parse(w.now) - KEEP_MS).toISOString())
    .execute();
  await w.db
    .insertInto('idempotency_keys')
    .values({
      user_id: request.actor.id,
      scope: request.scope,
      key: request.key,
      request_hash: hashOf(request.body),
      status,
      answer,
      created_at: w.now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing())
    .execute();
}

/**
 * Runs `run` once per key, in the caller's transaction: a key seen before answers its kept answer
 * (a kept refusal is thrown again as the same DomainError) and runs nothing; a new key runs `run` and
 * keeps its answer with the writes it made.
 */
export async function answerOnce<Body>(
  w: WriteContext,
  request: KeyedRequest,
  run: () => Promise<KeptAnswer<Body>>,
): Promise<KeptAnswer<Body>> {
  if (request.key !== null) {
    const kept = await w.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', request.actor.id)
      .where('scope', '=', request.scope)
      .where('key', '=', request.key)
      .where('created_at', '>=', new Date(Date.parse(w.now) - KEEP_MS).toISOString())
      .executeTakeFirst();
    if (kept) {
      if (kept.request_hash !== hashOf(request.body)) throw conflict('idempotencyKeyReused');
      const answer = JSON.parse(kept.answer) as { refused?: MessageCode; body?: Body };
      if (answer.refused !== undefined) throw new DomainError(answer.refused, Number(kept.status) as ErrorStatus);
      return { status: Number(kept.status), body: answer.body as Body };
    }
  }
  const answer = await run();
  await keep(w, request, answer.status, JSON.stringify({ body: answer.body }));
  return answer;
}

/**
 * Keeps a refusal as the key's answer (in a transaction of its own: the refused one rolled back), so
 * the same key is refused alike. Only refusals of the request itself (4xx DomainErrors) are kept.
 */
export async function keepRefusal(w: WriteContext, request: KeyedRequest, error: unknown): Promise<void> {
  if (!(error instanceof DomainError) || error.status >= 500 || error.status === 429) return;
  if (error.code === 'idempotencyKeyReused') return;
  await keep(w, request, error.status, JSON.stringify({ refused: error.code }));
}
