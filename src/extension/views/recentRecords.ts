/**
 * The records a view was told of most recently (a save, an agent's write, a change on the port),
 * at most `max` of them: what `asset(id)` answers from for a snippet in no open group, so a window
 * that just saved or opened a snippet finds it without holding the whole library. Least recently
 * touched goes first. Knows nothing of VS Code.
 */
export class RecentRecords<T> {
  private readonly max: number;
  private readonly records = new Map<string, T>();

  constructor(max: number) {
    this.max = max;
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  set(id: string, record: T): void {
    // Re-inserting moves it to the newest end of the Map's order.
    this.records.delete(id);
    this.records.set(id, record);
    for (const oldest of this.records.keys()) {
      if (this.records.size <= this.max) break;
      this.records.delete(oldest);
    }
  }

  delete(id: string): void {
    this.records.delete(id);
  }

  clear(): void {
    this.records.clear();
  }

  values(): T[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }
}
