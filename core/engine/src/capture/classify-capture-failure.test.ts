import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { PageInterrupted } from './page-watch.js';
import { settledCrashError } from './classify-capture-failure.js';

/** A page watch's `interrupted` that rejects with `interruption` after `ms`. */
const interruptedAfter = (ms: number, interruption: PageInterrupted): Promise<never> => {
  const promise = new Promise<never>((_, reject) => setTimeout(() => reject(interruption), ms));
  promise.catch(() => undefined);
  return promise;
};
const detached = new Error('Navigating frame was detached');

describe('settledCrashError', () => {
  it('a call that failed just before the crash event is a browser-crashed, not a capture-failed', async () => {
    const crash = new PageInterrupted({ kind: 'crashed', detail: 'Page crashed!' });
    const error = await settledCrashError(
      { browser: { connected: true } },
      detached,
      'while loading http://127.0.0.1/x',
      interruptedAfter(20, crash),
    );
    expect(error).toMatchObject({
      code: 'browser-crashed',
      retryable: true,
      message: expect.stringContaining('while loading http://127.0.0.1/x'),
    });
  });

  it('a browser that disconnects while the failure settles is a browser-crashed', async () => {
    const witness = { browser: { connected: true } };
    setTimeout(() => (witness.browser.connected = false), 20);
    expect(await settledCrashError(witness, detached, 'at frame 3')).toMatchObject({ code: 'browser-crashed' });
  });

  it('with no crash, no disconnect and no abort it stays a capture-failed, after a bounded wait', async () => {
    const started = Date.now();
    const error = await settledCrashError({ browser: { connected: true } }, detached, 'at frame 3', new Promise<never>(() => undefined));
    expect(error).toMatchObject({ code: 'capture-failed', message: 'Capture failed at frame 3: Navigating frame was detached' });
    expect(Date.now() - started).toBeLessThan(5_000); // never waits on the page
  });

  it("an abort meanwhile gives the abort's own reason", async () => {
    const reason = new SeekframeError('render-timeout', 'The render ran past its time limit.', { stage: 'capture' });
    const error = await settledCrashError(
      { browser: { connected: true } },
      detached,
      'at frame 3',
      interruptedAfter(10, new PageInterrupted({ kind: 'aborted', reason })),
    );
    expect(error).toBe(reason);
  });
});
