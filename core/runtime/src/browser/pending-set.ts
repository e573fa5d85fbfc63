/** Names of what the page is still waiting for; `pending()` shows them when the engine times out. */
export class PendingSet {
  private readonly counts = new Map<string, number>();

  /** Marks `label` pending until `promise` settles; returns the same promise. */
  track<T>(label: string, promise: Promise<T>): Promise<T> {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
    const done = (): void => {
      const left = (this.counts.get(label) ?? 1) - 1;
      if (left <= 0) this.counts.delete(label);
      else this.counts.set(label, left);
    };
    promise.then(done, done);
    return promise;
  }

  list(): string[] {
    return [...this.counts.keys()];
  }
}
