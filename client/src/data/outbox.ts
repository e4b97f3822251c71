/**
 * The ids of documents changed on this device and not yet sent to the server: the count the sync
 * indicator shows as "changes waiting". Kept in localStorage where there is one, so it survives an
 * offline reload.
 */
export class Outbox {
  private ids: Set<string>;
  private listeners = new Set<() => void>();
  /** When the outbox last changed (ms), kept beside it: a background sync that started later sent all of it. */
  private changedAt: number;

  constructor(private readonly storageKey: string | null) {
    this.ids = new Set(this.load());
    this.changedAt = this.loadChangedAt();
  }

  private loadChangedAt(): number {
    if (!this.storageKey || typeof localStorage === 'undefined') return 0;
    return Number(localStorage.getItem(`${this.storageKey}:changedAt`) ?? 0) || 0;
  }

  private load(): string[] {
    if (!this.storageKey || typeof localStorage === 'undefined') return [];
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(this.storageKey) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  private save(): void {
    this.changedAt = Date.now();
    if (this.storageKey && typeof localStorage !== 'undefined') {
      localStorage.setItem(this.storageKey, JSON.stringify([...this.ids]));
      localStorage.setItem(`${this.storageKey}:changedAt`, String(this.changedAt));
    }
    for (const listener of this.listeners) listener();
  }

  get size(): number {
    return this.ids.size;
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    this.save();
  }

  delete(id: string): void {
    if (this.ids.delete(id)) this.save();
  }

  clear(): void {
    this.ids.clear();
    this.save();
  }

  /**
   * Empties the outbox when nothing was added to it (or taken from it) since `time`: the service
   * worker's background sync that started then sent every change waiting (docs/architecture.md,
   * Background sync). A later change stays counted until the replication has sent it.
   */
  clearIfUnchangedSince(time: number): void {
    // Another tab of the app may have changed it meanwhile: its time is in localStorage.
    if (Math.max(this.changedAt, this.loadChangedAt()) <= time && this.ids.size > 0) this.clear();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
