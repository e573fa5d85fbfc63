/**
 * Runs seeks one at a time, newest target wins: while a seek is in flight, further requests only
 * replace the next target, so a fast scrubber or a slow frame drops frames instead of queueing them.
 */
export class SeekPump {
  private target: number | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly seekTo: (t: number) => Promise<void>,
    private readonly onSeeked: (t: number) => void,
  ) {}

  /** True while a seek is running (the play loop skips a frame then). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves once a seek at `t` or at a newer target has finished. */
  request(t: number): Promise<void> {
    this.target = t;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.target !== undefined) {
      const t = this.target;
      this.target = undefined;
      await this.seekTo(t);
      this.onSeeked(t);
    }
  }
}
