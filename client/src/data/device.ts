import type { FankurveDatabase } from './database.js';
import type { DocStore } from './docStore.js';
import type { Outbox } from './outbox.js';

/**
 * The device's database (what it pushes), its document store (what it only reads) and its outbox of
 * unsent changes: what every write of the data layer works on.
 */
export interface Device {
  db: FankurveDatabase;
  docs: DocStore;
  outbox: Outbox;
}

/** A refusal of a local rule, for instant feedback; the server checks the same shared rule again. */
export class LocalRuleError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** Throws the rule's message code unless it allows the change. */
export function enforce<T>(rule: { ok: true; value: T } | { ok: false; code: string }): T {
  if (!rule.ok) throw new LocalRuleError(rule.code);
  return rule.value;
}
