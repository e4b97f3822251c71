import type { Language } from '@fankurve/shared';
import type { PushTopic } from '@fankurve/shared/push';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DomainEvent } from '../domain/domainEvents.js';
import type { PushText } from './texts.js';

/** A possible message for a user; of several with the same key, the one of the lowest rank whose topic is on is sent. */
export interface Candidate {
  userId: string;
  key: string;
  rank: number;
  topic: PushTopic;
  text: (language: Language) => PushText;
}

export interface Subscriber {
  userId: string;
  language: Language;
  scope: 'admin' | 'user';
}

/** What a collection's push handler may read and whom it may propose a message for. */
export interface NotifyContext {
  readonly db: Kysely<Database>;
  /** Every member with a device to send to. */
  subscribers(): Iterable<Subscriber>;
  /** Proposes a message; never kept for the member who acted (`actorId`) or one without a device. */
  add(userId: string | null, actorId: string, candidate: Omit<Candidate, 'userId'>): void;
}

type Handler<Type extends DomainEvent['type']> = (
  event: Extract<DomainEvent, { type: Type }>,
  context: NotifyContext,
) => Promise<void>;

/**
 * Whom a collection's domain events reach by web push (docs/architecture.md, "Web Push"), declared in
 * the collection's own notify.ts: one handler per event type that notifies anyone.
 */
export type NotifyHandlers = { [Type in DomainEvent['type']]?: Handler<Type> };

/** Each collection's handlers in one table (the wiring passes every collection's). */
export function joinNotifyHandlers(all: readonly NotifyHandlers[]): NotifyHandlers {
  const joined: Record<string, unknown> = {};
  for (const handlers of all)
    for (const [type, handler] of Object.entries(handlers)) {
      if (joined[type]) throw new Error(`Two collections notify on ${type}`);
      joined[type] = handler;
    }
  return joined as NotifyHandlers;
}

/** Runs the handler of the event's type, if a collection declared one. */
export async function runNotifyHandler(handlers: NotifyHandlers, event: DomainEvent, context: NotifyContext): Promise<void> {
  const handler = handlers[event.type] as Handler<DomainEvent['type']> | undefined;
  if (handler) await handler(event, context);
}
