import type { RxReplicationWriteToMasterRow } from 'rxdb';

type Doc = Record<string, unknown> & { id: string; seq?: number; _deleted?: boolean };
type Row = { assumedMasterState?: Doc | null; newDocumentState: Doc };

/**
 * Keeps pushes right when RxDB's record of the server's state goes stale (docs/architecture.md,
 * sync: push). RxDB writes a conflict answer over the device's document only if the document has
 * not changed since it was sent; otherwise (also when the device writes in the moment between) it
 * drops the answer, keeps its old record and sends the next state against it, and a field the
 * device changed and changed back meanwhile would look unchanged. So every answer is remembered
 * here; when the next push of that document still assumes the old state, it is rebased onto the
 * answer (the server's document plus what the device changed since it sent the answered state),
 * and the server's result goes back to RxDB as the answer.
 */
export class PushRebaser {
  /** Per document: the last push's assumed and sent states and the server's answer to it. */
  private readonly answered = new Map<string, { base: Doc | null; sent: Doc; answer: Doc }>();

  constructor(private readonly fields: readonly string[]) {}

  /** The rows to send: a row whose assumed state is a state answered earlier is rebased onto that answer. */
  rebase(rows: RxReplicationWriteToMasterRow<unknown>[]): { rows: Row[]; rebased: Set<string> } {
    const rebased = new Set<string>();
    const out = (rows as unknown as Row[]).map((row) => {
      const id = row.newDocumentState.id;
      const known = this.answered.get(id);
      this.answered.delete(id);
      // RxDB still assumes what it sent (it got no answer) or what it assumed before (its write of the answer failed).
      const assumed = row.assumedMasterState ?? null;
      const stale = known && (assumed === null ? known.base === null : sameState(assumed, known.sent) || (known.base !== null && sameState(assumed, known.base)));
      if (!known || !stale) return row;
      rebased.add(id);
      const changed = this.fields.filter((field) => !sameValue(row.newDocumentState[field], known.sent[field]));
      const next: Doc = {
        ...known.answer,
        ...Object.fromEntries(changed.map((field) => [field, row.newDocumentState[field]])),
        _deleted: row.newDocumentState._deleted === true,
      };
      return { assumedMasterState: known.answer, newDocumentState: next };
    });
    return { rows: out, rebased };
  }

  /**
   * The answers for RxDB. An answer for a document the device changed after sending it is kept for
   * the next push instead; a rebased row is always answered with the result (the device lacks it).
   */
  answers(sent: Row[], rebased: Set<string>, answers: Doc[], current: Map<string, Doc | null>): Doc[] {
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    const out: Doc[] = [];
    for (const row of sent) {
      const id = row.newDocumentState.id;
      const answer = byId.get(id) ?? (rebased.has(id) ? row.newDocumentState : undefined);
      if (!answer) continue;
      const now = current.get(id) ?? { id, _deleted: true };
      const changedMeanwhile = !sameState(now, row.newDocumentState);
      if (!answer._deleted) this.answered.set(id, { base: row.assumedMasterState ?? null, sent: row.newDocumentState, answer });
      // RxDB would drop this answer (the device changed the document since): the next push is rebased instead.
      if (!changedMeanwhile || answer._deleted) out.push(answer);
    }
    return out;
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
