export interface QueueStatus {
  maxConcurrentRenders: number;
  activeRenders: number;
  queuedRenders: number;
}

export interface QueueTicket {
  /** 0 when the job started at once, else its place in line (1 = next). */
  readonly position: number;
  /** Leaves the line; false when the job already started (cancel it through its signal then). */
  leave(): boolean;
}

interface Waiting {
  id: string;
  run: () => Promise<unknown>;
  onPosition: (position: number) => void;
}

/**
 * FIFO with a fixed number of slots. A job holds its slot until its promise settles, whatever the
 * outcome, and the slot passes to the head of the line in the same tick, so the counts that
 * `status()` reports are right at every moment.
 */
export class RenderQueue {
  private readonly waiting: Waiting[] = [];
  private active = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(readonly maxConcurrentRenders: number) {}

  status(): QueueStatus {
    return { maxConcurrentRenders: this.maxConcurrentRenders, activeRenders: this.active, queuedRenders: this.waiting.length };
  }

  /** `onPosition` hears every later change of place in line (someone ahead left or started). */
  enqueue(id: string, run: () => Promise<unknown>, onPosition: (position: number) => void = () => undefined): QueueTicket {
    const entry: Waiting = { id, run, onPosition };
    if (this.active < this.maxConcurrentRenders && this.waiting.length === 0) {
      this.start(entry);
      return { position: 0, leave: () => false };
    }
    this.waiting.push(entry);
    return { position: this.waiting.length, leave: () => this.remove(entry) };
  }

  /** Empties the line (shutdown); returns the ids that were waiting, in order. */
  clearWaiting(): string[] {
    return this.waiting.splice(0).map((entry) => entry.id);
  }

  /** Resolves once no job is running. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private remove(entry: Waiting): boolean {
    const index = this.waiting.indexOf(entry);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    this.announceFrom(index);
    return true;
  }

  private start(entry: Waiting): void {
    this.active++;
    const done = (): void => {
      this.active--;
      this.pump();
    };
    // A job that throws synchronously must still give its slot back.
    Promise.resolve().then(entry.run).then(done, done);
  }

  private pump(): void {
    let started = 0;
    while (this.active < this.maxConcurrentRenders && this.waiting.length > 0) {
      this.start(this.waiting.shift()!);
      started++;
    }
    if (started > 0) this.announceFrom(0);
    if (this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private announceFrom(index: number): void {
    for (let i = index; i < this.waiting.length; i++) this.waiting[i]!.onPosition(i + 1);
  }
}
