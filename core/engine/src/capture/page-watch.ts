import type { Page } from 'puppeteer-core';

/** Why a wait on a page ended before the page answered. */
export type PageInterruption = { kind: 'crashed'; detail: string } | { kind: 'aborted'; reason: unknown };

export class PageInterrupted extends Error {
  constructor(readonly interruption: PageInterruption) {
    super(interruption.kind === 'crashed' ? `page crashed (${interruption.detail})` : 'aborted');
  }
}

export interface PageWatch {
  /**
   * Rejects with PageInterrupted the moment the renderer crashes (Inspector.targetCrashed), the
   * browser goes away, or the signal aborts. Every wait on the page races it, so a killed renderer
   * is noticed within the event's round trip instead of at the next timeout.
   */
  readonly interrupted: Promise<never>;
  /** JavaScript dialogs the page opened (each already dismissed), as `alert("text")`. */
  dialogs(): string[];
  dispose(): void;
}

/**
 * Watches one capture page for what ends every wait on it: a crash, a lost browser, an abort.
 * Also dismisses alert/confirm/prompt/beforeunload dialogs at once: an open dialog blocks the
 * page's main thread until someone answers, and in a render nobody would.
 */
export function watchPage(page: Page, signal?: AbortSignal): PageWatch {
  const dialogs: string[] = [];
  let reject!: (error: PageInterrupted) => void;
  const interrupted = new Promise<never>((_, r) => {
    reject = r;
  });
  // Nobody may be waiting at the moment it fires.
  interrupted.catch(() => undefined);
  const onError = (error: unknown): void =>
    reject(new PageInterrupted({ kind: 'crashed', detail: error instanceof Error ? error.message : String(error) }));
  const onDisconnect = (): void => reject(new PageInterrupted({ kind: 'crashed', detail: 'the browser process went away' }));
  const onAbort = (): void => reject(new PageInterrupted({ kind: 'aborted', reason: signal?.reason }));
  const onDialog = (dialog: { type(): string; message(): string; dismiss(): Promise<void> }): void => {
    dialogs.push(`${dialog.type()}(${JSON.stringify(dialog.message())})`);
    dialog.dismiss().catch(() => undefined);
  };
  page.on('error', onError);
  page.on('dialog', onDialog);
  const browser = page.browser();
  browser.on('disconnected', onDisconnect);
  if (!browser.connected) onDisconnect();
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    interrupted,
    dialogs: () => [...dialogs],
    dispose: () => {
      page.off('error', onError);
      browser.off('disconnected', onDisconnect);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
