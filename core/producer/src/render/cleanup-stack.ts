/**
 * Things to undo at the end of a render (browsers, servers, temp dirs), run newest first. Every
 * step runs even when an earlier one fails, so one stuck browser never leaks a temp dir.
 */
export class CleanupStack {
  private readonly steps: Array<() => Promise<unknown> | unknown> = [];

  add(step: () => Promise<unknown> | unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step();
      } catch {
        // Cleanup is best effort; the render's own error (if any) is what the user needs.
      }
    }
  }
}
