import type { SeekframeError } from '@seekframe/composition';
import { packagesNotInstalled } from './missing-cdn-package.js';

/**
 * The per-render log of problems that break frames without the page noticing: a missing project
 * file, a failed remote asset, a symlink out of the project, a child composition that cannot be
 * served, and the remote requests still waiting for an answer. The project server records into
 * it; the render reads it (to fail at the next frame, and to name the real cause when the page
 * only times out). One object per render, passed in through the render context, so a host can
 * share it between the plan step and the frames of a chunk, or read it after a failure.
 */
export class ProblemLog {
  readonly #problems: SeekframeError[] = [];
  readonly #pending = new Map<string, number>();

  /** Records a problem once (the same message twice is one problem). */
  record(error: SeekframeError): void {
    if (!this.#problems.some((p) => p.message === error.message)) this.#problems.push(error);
  }

  /** Every problem so far, oldest first. */
  problems(): SeekframeError[] {
    return [...this.#problems];
  }

  /** The first problem; every npm package the page could not load is one error naming them all. */
  first(): SeekframeError | undefined {
    return packagesNotInstalled(this.#problems) ?? this.#problems[0];
  }

  /** Throws the first recorded problem. */
  assertNone(): void {
    const first = this.first();
    if (first) throw first;
  }

  /** A remote URL the page asked for is being fetched; call the returned function when it is answered. */
  remoteStarted(url: string): () => void {
    this.#pending.set(url, (this.#pending.get(url) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#pending.get(url) ?? 1) - 1;
      if (left > 0) this.#pending.set(url, left);
      else this.#pending.delete(url);
    };
  }

  /** Remote URLs asked for and not answered yet (for ready-timeout messages). */
  pendingRemote(): string[] {
    return [...this.#pending.keys()];
  }
}
