import { SYNC_DECLARATIONS } from '@fankurve/shared';
import { fromGrouped, GROUPED_COLLECTIONS, toGrouped, type GroupedCollectionName, type GroupedDoc } from './pushedGroup.js';

/*
 * The sync of the group of small pushed kinds (pushedGroup.ts; docs/architecture.md, Client data
 * layer) against each kind's own endpoints: the server knows nothing of the group.
 */

/** The group's checkpoint: each kind's last seq. */
export type GroupCheckpoint = { seqs: Partial<Record<string, number>> };

type Post = (path: string, body: unknown) => Promise<unknown>;
type ServerDoc = { id: string; _deleted?: boolean };
/** A push row as the rebaser hands it over: grouped documents. */
type GroupRow = {
  assumedMasterState?: Record<string, unknown> | null;
  newDocumentState: Record<string, unknown> & { id: string };
};

const base = (kind: GroupedCollectionName) => `/api/sync/${kind}/${SYNC_DECLARATIONS[kind].schema.version}`;

/** A server's document of a kind as the group holds it; a tombstone gets the kind's schema-valid blanks. */
function fromServer(kind: GroupedCollectionName, doc: ServerDoc): GroupedDoc {
  return toGrouped(kind, doc._deleted ? { ...SYNC_DECLARATIONS[kind].tombstone, ...doc } : doc);
}

export class GroupSync {
  /** Every kind is asked at the next pull (a start, a reconnect, `online`), else those in `changedKinds`. */
  private everyKind = true;
  private readonly changedKinds = new Set<GroupedCollectionName>();

  constructor(private readonly post: Post) {}

  /** The change stream named a kind: the next pull asks for it. */
  changed(kind: GroupedCollectionName): void {
    this.changedKinds.add(kind);
  }

  /** Something may have been missed: the next pull asks every kind. */
  changedAll(): void {
    this.everyKind = true;
  }

  /**
   * One pull of the group: each kind asked for, from its own seq. A kind with a full page is asked
   * again at the next pull, which RxDB makes since it got at least a batch.
   */
  async pull(
    checkpoint: GroupCheckpoint | undefined,
    batchSize: number,
  ): Promise<{ documents: GroupedDoc[]; checkpoint: GroupCheckpoint }> {
    const seqs = { ...checkpoint?.seqs };
    const wanted = this.everyKind ? GROUPED_COLLECTIONS : GROUPED_COLLECTIONS.filter((kind) => this.changedKinds.has(kind));
    this.everyKind = false;
    this.changedKinds.clear();
    const documents: GroupedDoc[] = [];
    try {
      for (const kind of wanted) {
        const after = seqs[kind];
        const answer = (await this.post(`${base(kind)}/pull`, {
          checkpoint: after ? { seq: after } : null,
          limit: batchSize,
        })) as {
          documents: ServerDoc[];
          checkpoint: { seq: number } | null;
        };
        documents.push(...answer.documents.map((doc) => fromServer(kind, doc)));
        if (answer.checkpoint) seqs[kind] = answer.checkpoint.seq;
        if (answer.documents.length >= batchSize) this.changedKinds.add(kind);
      }
    } catch (error) {
      for (const kind of wanted) this.changedKinds.add(kind);
      throw error;
    }
    return { documents, checkpoint: { seqs } };
  }

  /** Sends each kind's rows, without the group's `kind`, to the kind's push; the answers as the group holds them. */
  async push(rows: readonly GroupRow[]): Promise<GroupedDoc[]> {
    const byKind = new Map<GroupedCollectionName, GroupRow[]>();
    for (const row of rows) {
      const kind = row.newDocumentState.kind as GroupedCollectionName;
      byKind.set(kind, [...(byKind.get(kind) ?? []), row]);
    }
    const answers: GroupedDoc[] = [];
    for (const [kind, sent] of byKind) {
      const plain = sent.map((row) => ({
        assumedMasterState: row.assumedMasterState ? fromGrouped(row.assumedMasterState) : row.assumedMasterState,
        newDocumentState: fromGrouped(row.newDocumentState),
      }));
      const answered = (await this.post(`${base(kind)}/push`, plain)) as ServerDoc[];
      answers.push(...answered.map((doc) => fromServer(kind, doc)));
    }
    return answers;
  }
}
