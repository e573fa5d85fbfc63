/** Collects errors thrown by author scripts (`window.onerror`, unhandled rejections, callbacks). */
export class ErrorLog {
  private readonly messages: string[] = [];

  add(message: string): void {
    this.messages.push(message);
  }

  addError(error: unknown, where?: string): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.add(where ? `${text} (${where})` : text);
  }

  list(): string[] {
    return [...this.messages];
  }

  /**
   * Records the page's errors. `injected`: the document whose inline scripts come after `lines`
   * lines the runtime's injection added; their line numbers are given as in the file.
   */
  listen(win: Window, injected?: { url: string; lines: number }): void {
    win.addEventListener('error', (event) => {
      // Resource load failures (img/script 404) fire on the element, not as script errors.
      if (!(event instanceof ErrorEvent)) return;
      const shift = injected && event.filename === injected.url && event.lineno > injected.lines ? injected.lines : 0;
      const where = event.filename ? `${event.filename}:${event.lineno - shift}:${event.colno}` : undefined;
      if (event.error !== undefined && event.error !== null) this.addError(event.error, where);
      else this.add(where ? `${event.message} (${where})` : event.message);
    });
    win.addEventListener('unhandledrejection', (event) => {
      this.addError(event.reason, 'unhandled promise rejection');
    });
  }
}
