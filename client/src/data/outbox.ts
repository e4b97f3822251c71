/**
 * The ids of documents changed on this device and not yet sent to the server: the count the sync
 * indicator shows as "changes waiting". Kept in localStorage where there is one, so it survives an
 * offline reload.
 */
export class Outbox {
  private ids: Set<string>;
  private listeners = new Set<() => void>();

  constructor(private readonly storageKey: string | null) {
    this.ids = new Set(this.load());
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
    if (this.storageKey && typeof localStorage !== 'undefined') localStorage.setItem(this.storageKey, JSON.stringify([...this.ids]));
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

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
