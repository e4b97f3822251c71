import type { RxConflictHandler, RxReplicationWriteToMasterRow } from 'rxdb';
import { defaultConflictHandler } from 'rxdb';
import { deleteDeviceValue, deleteDeviceValues, writeDeviceValue } from './deviceStore.js';

type Doc = Record<string, unknown> & { id: string; seq?: number; _deleted?: boolean };
type Row = { assumedMasterState?: Doc | null; newDocumentState: Doc };

/**
 * How many pushes of one document in a row are rebased before the handler stops making RxDB push it
 * by itself: one is the rule, a few cover a device that keeps writing while its pushes are answered.
 */
const MAX_REBASES_IN_A_ROW = 5;

/** Where answers RxDB dropped are kept across a restart of the app (localStorage in the browser). */
export type AnswerStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The prefix of every key a rebaser keeps its dropped answers under (sign-out drops them all). */
export const DROPPED_ANSWERS_PREFIX = 'droppedAnswers:';

/** A collection's dropped answers belong to one database and one schema version (a new version starts afresh). */
export function droppedAnswersKey(database: string, collection: string, version: number): string {
  return `${DROPPED_ANSWERS_PREFIX}${database}:${collection}@${version}`;
}

/** localStorage where there is one (not in Node, nor where the browser blocks it). */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The page's store of dropped answers: localStorage, copied into the device store (data/deviceStore.ts)
 * as it changes, so that the service worker's background sync compares with what the device last
 * received too (docs/architecture.md, Background sync). The copy is best effort: an entry the copy
 * keeps after localStorage dropped it names an answer RxDB has since moved past, which changes nothing.
 */
export function mirroredAnswerStore(store: AnswerStore | null): AnswerStore | null {
  if (!store) return null;
  const mirror = (write: Promise<void>) => void write.catch(() => undefined);
  return {
    getItem(key) {
      const value = store.getItem(key);
      if (value !== null) mirror(writeDeviceValue(key, value));
      return value;
    },
    setItem(key, value) {
      store.setItem(key, value);
      mirror(writeDeviceValue(key, value));
    },
    removeItem(key) {
      store.removeItem(key);
      mirror(deleteDeviceValue(key));
    },
  };
}

/** Sign-out: the dropped answers of every collection go with the device's database. */
export function forgetDroppedAnswers(store: Pick<Storage, 'key' | 'length' | 'removeItem'> | null = browserStorage()): void {
  void deleteDeviceValues(DROPPED_ANSWERS_PREFIX).catch(() => undefined);
  if (!store) return;
  const keys = Array.from({ length: store.length }, (_, index) => store.key(index));
  for (const key of keys) if (key?.startsWith(DROPPED_ANSWERS_PREFIX)) store.removeItem(key);
}

/** One push of a document as RxDB made it, and the server's answer (its document after the push). */
interface Answered {
  /** What RxDB assumed the server had, and what it sent (before any rebase). */
  rxAssumed: Doc | null;
  rxSent: Doc;
  answer: Doc;
}

/**
 * Keeps RxDB's record of the server's state true (docs/architecture.md, sync: push). The server
 * answers every push that changed a document with its document, and that answer is what the device
 * last received. RxDB writes an answer over the device's document only if the document has not
 * changed since it was sent; otherwise (also when the device writes in the moment between) it drops
 * the answer and keeps assuming the old state, so a field the device changed and changed back would
 * look unchanged to RxDB and never be pushed, and the pull of the server's state would overwrite it.
 *
 * So every answer is remembered here, and while RxDB still assumes a state older than the answer:
 * - the document counts as changed (the conflict handler's `isEqual` says so), so RxDB pushes it and
 *   the pull does not overwrite it;
 * - its push is rebased onto the answer (the server's document plus what the device changed since it
 *   sent the answered state), and the server's result goes back to RxDB as the answer.
 *
 * It is the collection's conflict handler, so RxDB's own comparisons ask it; it also keeps a pulled
 * state older than the device's document (a pull that crossed the device's push) from overwriting it.
 *
 * The answers RxDB dropped are also written to the store, so an app closed before the next push of
 * such a document still compares with what the device last received when it starts again.
 */
export class PushRebaser implements RxConflictHandler<unknown> {
  private readonly answered: Map<string, Answered>;
  /** The documents whose answer RxDB dropped: the entries of `answered` that the store keeps. */
  private readonly dropped: Set<string>;
  /** Per document: pushes rebased in a row without RxDB adopting an answer (a bound, so a fault cannot loop). */
  private readonly rebasedInARow = new Map<string, number>();
  /** `dropped` changed since it was last written to the store. */
  private unsaved = false;

  constructor(
    private readonly fields: readonly string[],
    private readonly memory: { store: AnswerStore; key: string } | null = null,
  ) {
    this.answered = this.restore();
    this.dropped = new Set(this.answered.keys());
  }

  /** RxDB's comparisons of a server state (assumed, or just pulled) with the device's document. */
  isEqual = (a: unknown, b: unknown, context: string): boolean => {
    const server = a as Doc;
    const current = b as Doc;
    const forcing = (this.rebasedInARow.get(current.id) ?? 0) < MAX_REBASES_IN_A_ROW;
    if ((context === 'upstream-check-if-equal' || context === 'downstream-check-if-equal-0') && forcing && this.isBehind(current.id, server)) {
      return false;
    }
    // A pull answered before a push of this device committed can arrive after the push's answer: its
    // older state must not overwrite the newer one (RxDB writes a pulled state that is not "equal").
    if (context === 'downstream-check-if-equal-1' && Number(server.seq ?? 0) < Number(current.seq ?? 0)) return true;
    return defaultConflictHandler.isEqual(a, b, context);
  };

  resolve = defaultConflictHandler.resolve;

  /** RxDB still assumes a state from before the server's last answer for the document. */
  private isBehind(id: string, assumed: Doc | null): boolean {
    const known = this.answered.get(id);
    if (!known) return false;
    if (assumed !== null && sameState(assumed, known.answer)) return false;
    if (assumed === null) return known.rxAssumed === null;
    return sameState(assumed, known.rxSent) || (known.rxAssumed !== null && sameState(assumed, known.rxAssumed));
  }

  /** The rows to send: a row whose assumed state is older than an answer is rebased onto that answer. */
  rebase(rxRows: RxReplicationWriteToMasterRow<unknown>[]): { rows: Row[]; original: Map<string, Row> } {
    const original = new Map<string, Row>();
    const rows = (rxRows as unknown as Row[]).map((row) => {
      const id = row.newDocumentState.id;
      original.set(id, row);
      const known = this.answered.get(id);
      const assumed = row.assumedMasterState ?? null;
      if (!known || !this.isBehind(id, assumed)) {
        this.answered.delete(id);
        this.rebasedInARow.delete(id);
        this.keepDropped(id, false);
        return row;
      }
      this.rebasedInARow.set(id, (this.rebasedInARow.get(id) ?? 0) + 1);
      const changed = this.fields.filter((field) => !sameValue(row.newDocumentState[field], known.rxSent[field]));
      const next: Doc = {
        ...known.answer,
        ...Object.fromEntries(changed.map((field) => [field, row.newDocumentState[field]])),
        _deleted: row.newDocumentState._deleted === true,
      };
      return { assumedMasterState: known.answer, newDocumentState: next };
    });
    this.save();
    return { rows, original };
  }

  /**
   * The answers for RxDB. A rebased row is always answered with the result (RxDB lacks it). An
   * answer for a document the device changed after sending it is remembered and not handed to RxDB
   * (it could not write it): the document then counts as changed until a push of it is answered.
   */
  answers(sent: Row[], original: Map<string, Row>, answers: Doc[], current: Map<string, Doc | null>): Doc[] {
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    const out: Doc[] = [];
    for (const row of sent) {
      const id = row.newDocumentState.id;
      const rx = original.get(id)!;
      const rebased = rx !== row;
      const answer = byId.get(id) ?? (rebased ? row.newDocumentState : undefined);
      if (!answer) continue;
      const now = current.get(id) ?? { id, _deleted: true };
      const changedMeanwhile = !sameState(now, rx.newDocumentState);
      if (!answer._deleted) {
        this.answered.set(id, { rxAssumed: rx.assumedMasterState ?? null, rxSent: rx.newDocumentState, answer });
      }
      const handed = !changedMeanwhile || answer._deleted === true;
      this.keepDropped(id, !handed);
      if (handed) out.push(answer);
    }
    this.save();
    return out;
  }

  private keepDropped(id: string, dropped: boolean): void {
    if (dropped === this.dropped.has(id)) return;
    if (dropped) this.dropped.add(id);
    else this.dropped.delete(id);
    this.unsaved = true;
  }

  private save(): void {
    if (!this.memory || !this.unsaved) return;
    this.unsaved = false;
    const entries = [...this.dropped].flatMap((id) => {
      const known = this.answered.get(id);
      return known ? [[id, known] as const] : [];
    });
    try {
      if (entries.length === 0) this.memory.store.removeItem(this.memory.key);
      else this.memory.store.setItem(this.memory.key, JSON.stringify(Object.fromEntries(entries)));
    } catch {
      // full or blocked storage: the answers stay in memory for as long as the app runs
    }
  }

  private restore(): Map<string, Answered> {
    if (!this.memory) return new Map();
    try {
      const stored = JSON.parse(this.memory.store.getItem(this.memory.key) ?? '{}') as Record<string, Answered>;
      return new Map(Object.entries(stored).filter(([, entry]) => typeof entry === 'object' && entry !== null && 'answer' in entry));
    } catch {
      return new Map();
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Equal documents as a device holds them (seq included; RxDB's own fields left out). */
function sameState(a: Doc, b: Doc): boolean {
  if ((a._deleted ?? false) !== (b._deleted ?? false)) return false;
  if (a._deleted) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === '_meta' || key === '_rev' || key === '_attachments' || key === '_deleted') continue;
    if (!sameValue(a[key], b[key])) return false;
  }
  return true;
}
