/*
 * The rows of an event the device does not keep, fetched when the member opens it (docs/architecture.md,
 * What a device keeps). They arrive through the collection's pull: the next pull of the collection
 * fetches the wanted events' documents first and hands them to RxDB with its own batch, so RxDB
 * stores them as the server's documents (never as changes of the device). The device's pulls do not
 * bring later changes of such rows (only its own); opening the event online again fetches them anew.
 */

type Doc = { id: string; seq: number };

interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

export class EventPulls {
  private readonly wanted = new Map<string, Map<string, Waiting[]>>();

  /** Asks for an event's documents of a collection with the next pull; resolves once that pull has answered. */
  request(collection: string, eventId: string): Promise<void> {
    let events = this.wanted.get(collection);
    if (!events) this.wanted.set(collection, (events = new Map()));
    const waiting = events.get(eventId) ?? [];
    events.set(eventId, waiting);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  /**
   * Runs one pull of a collection with the wanted events' documents in front of its batch (the
   * newest state of a document wins where both have it). A failed fetch of the events fails their
   * requests, not the pull; a failed pull fails both.
   */
  async pullWith<Answer extends { documents: Doc[] }>(
    collection: string,
    fetchEvent: (eventId: string) => Promise<Doc[]>,
    pull: () => Promise<Answer>,
  ): Promise<Answer> {
    const events = this.wanted.get(collection);
    this.wanted.delete(collection);
    if (!events || events.size === 0) return pull();
    const settle = (error?: unknown) => {
      for (const waiting of events.values()) {
        for (const w of waiting) {
          if (error === undefined) w.resolve();
          else w.reject(error);
        }
      }
    };
    const extra = await Promise.all([...events.keys()].map(fetchEvent)).then(
      (lists) => lists.flat(),
      (error: unknown) => {
        settle(error);
        return null;
      },
    );
    let answer: Answer;
    try {
      answer = await pull();
    } catch (error) {
      if (extra) settle(error);
      throw error;
    }
    if (!extra) return answer;
    settle();
    return { ...answer, documents: newestOf([...extra, ...answer.documents]) };
  }

  /** The replication stopped: nothing asked for will come. */
  cancel(reason: unknown): void {
    for (const events of this.wanted.values()) for (const waiting of events.values()) for (const w of waiting) w.reject(reason);
    this.wanted.clear();
  }
}

/** Each document once, in its newest state (by seq). */
export function newestOf<D extends Doc>(docs: D[]): D[] {
  const byId = new Map<string, D>();
  for (const doc of docs) {
    const known = byId.get(doc.id);
    if (!known || doc.seq >= known.seq) byId.set(doc.id, doc);
  }
  return [...byId.values()];
}
