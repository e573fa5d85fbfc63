import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import type { JobEvent, JobRunContext } from './render-job.js';
import { createRenderJobs } from './render-jobs.js';

/** A runner whose jobs finish only when the test says so, each seeing its own signal. */
function manualRunner() {
  const started: string[] = [];
  const controls = new Map<string, { ctx: JobRunContext; resolve(value: string): void; reject(error: unknown): void }>();
  const run = (request: string, ctx: JobRunContext): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      started.push(request);
      controls.set(request, { ctx, resolve, reject });
      // Like a render: an abort makes it reject.
      ctx.signal.addEventListener('abort', () => reject(new SeekframeError('render-cancelled', 'aborted')));
    });
  return { run, started, control: (request: string) => controls.get(request)! };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createRenderJobs', () => {
  it('runs FIFO within the concurrency limit and reports queue positions', async () => {
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, maxConcurrent: 2 });
    const a = jobs.submit('a');
    const b = jobs.submit('b');
    const c = jobs.submit('c');
    const d = jobs.submit('d');
    expect([a.status, b.status, c.status, d.status]).toEqual(['running', 'running', 'queued', 'queued']);
    expect([c.position, d.position]).toEqual([1, 2]);
    await tick();
    expect(runner.started).toEqual(['a', 'b']);
    expect(jobs.status()).toEqual({ maxConcurrentRenders: 2, activeRenders: 2, queuedRenders: 2 });

    runner.control('b').resolve('B');
    await tick();
    await tick();
    expect(runner.started).toEqual(['a', 'b', 'c']);
    expect(jobs.get(d.id)).toMatchObject({ status: 'queued', position: 1 });
    expect(jobs.get(b.id)).toMatchObject({ status: 'completed', result: 'B', progress: 1 });

    runner.control('a').reject(new Error('encoder broke'));
    await tick();
    await tick();
    expect(runner.started).toEqual(['a', 'b', 'c', 'd']);
    expect(jobs.get(a.id)).toMatchObject({
      status: 'failed',
      error: { code: 'render-failed', message: 'encoder broke', retryable: false },
    });
    runner.control('c').resolve('C');
    runner.control('d').resolve('D');
    await jobs.idle();
    expect(jobs.status()).toEqual({ maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 });
  });

  it('keeps a SeekframeError a runner throws as the job error', async () => {
    const jobs = createRenderJobs<string, string>({
      run: async () => {
        throw new SeekframeError('lint-failed', 'index.html: 2 lint errors', { stage: 'lint', details: { findings: 2 } });
      },
    });
    const job = jobs.submit('x');
    expect(await jobs.settled(job.id)).toMatchObject({
      status: 'failed',
      error: { code: 'lint-failed', stage: 'lint', details: { findings: 2 } },
    });
  });

  it('cancels a queued job at once (it never starts) and a running one through its signal', async () => {
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, maxConcurrent: 1 });
    const running = jobs.submit('running');
    const waiting = jobs.submit('waiting');
    const behind = jobs.submit('behind');
    const behindEvents: JobEvent[] = [];
    jobs.subscribe(behind.id, (event) => behindEvents.push(event));
    await tick();

    expect(jobs.cancel(waiting.id, 'the client left')).toBe(true);
    expect(jobs.get(waiting.id)).toMatchObject({ status: 'cancelled', reason: 'the client left', position: 0 });
    expect(jobs.cancel(waiting.id)).toBe(false);
    expect(behindEvents).toEqual([{ type: 'snapshot' }, { type: 'queued', position: 1 }]);

    expect(jobs.cancel(running.id, 'stop it')).toBe(true);
    expect(runner.control('running').ctx.signal.aborted).toBe(true);
    expect(await jobs.settled(running.id)).toMatchObject({ status: 'cancelled', reason: 'stop it' });
    await tick();
    expect(runner.started).toEqual(['running', 'behind']);
    expect(jobs.cancel('never-existed')).toBe(false);
    runner.control('behind').resolve('done');
    await jobs.idle();
  });

  it('subscribe replays the current state first, then passes stage/progress/warning and the final event, then stops', async () => {
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, maxConcurrent: 1 });
    const job = jobs.submit('r');
    await tick();
    const { ctx } = runner.control('r');
    ctx.report({ type: 'stage', stage: 'capture' });
    ctx.report({ type: 'progress', stage: 'capture', framesRendered: 5, totalFrames: 20, percent: 25, fps: 10, eta: 1.5 });

    const late: Array<[JobEvent<string>, number, string | null]> = [];
    const stop = jobs.subscribe(job.id, (event, snapshot) => late.push([event, snapshot.framesRendered, snapshot.stage]));
    expect(late).toEqual([[{ type: 'snapshot' }, 5, 'capture']]);
    expect(jobs.get(job.id)).toMatchObject({ status: 'running', stage: 'capture', framesRendered: 5, totalFrames: 20, progress: 0.25 });

    ctx.report({ type: 'warning', code: 'lint/x', message: 'careful' });
    ctx.report({ type: 'progress', stage: 'capture', framesRendered: 20, totalFrames: 20, percent: 100, fps: 10, eta: 0 });
    // A runner's own complete/error events do not end the job; its promise does.
    ctx.report({ type: 'complete', output: '/x', size: 1, durationMs: 1, videoDuration: 1 });
    runner.control('r').resolve('R');
    await jobs.settled(job.id);
    expect(late.map(([event]) => event.type)).toEqual(['snapshot', 'warning', 'progress', 'completed']);
    expect(late.at(-1)![0]).toEqual({ type: 'completed', result: 'R' });

    // Late to a finished job: only the snapshot, which holds the outcome.
    const after: JobEvent[] = [];
    jobs.subscribe(job.id, (event, snapshot) => after.push(event, snapshot.status as never));
    expect(after).toEqual([{ type: 'snapshot' }, 'completed']);
    expect(jobs.subscribe('unknown', () => undefined)).toBeNull();
    stop?.();

    // Unsubscribing stops the events.
    const second = jobs.submit('s');
    await tick();
    const seen: string[] = [];
    const unsubscribe = jobs.subscribe(second.id, (event) => seen.push(event.type));
    unsubscribe!();
    runner.control('s').ctx.report({ type: 'stage', stage: 'finish' });
    runner.control('s').resolve('S');
    await jobs.settled(second.id);
    expect(seen).toEqual(['snapshot']);
  });

  it('remembers an ended job for retainMs, then forgets it and tells an expired id from an unknown one', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const jobs = createRenderJobs<string, string>({ run: async (request) => request.toUpperCase(), retainMs: 60_000, now: () => clock });
    const job = jobs.submit('x');
    expect(await jobs.settled(job.id)).toMatchObject({ status: 'completed', result: 'X', endedAt: '2026-01-01T00:00:00.000Z' });
    clock += 59_999;
    expect(jobs.get(job.id)?.status).toBe('completed');
    expect(jobs.expired(job.id)).toBe(false);
    clock += 2;
    expect(jobs.get(job.id)).toBeNull();
    expect(jobs.expired(job.id)).toBe(true);
    expect(jobs.expired('never-existed')).toBe(false);
    expect(jobs.get('never-existed')).toBeNull();
    expect(jobs.cancel(job.id)).toBe(false);
    expect(jobs.subscribe(job.id, () => undefined)).toBeNull();
  });

  it('a running job is never forgotten, however long it runs', async () => {
    let clock = 0;
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, retainMs: 10, now: () => clock });
    const job = jobs.submit('long');
    await tick();
    clock += 1_000_000;
    expect(jobs.get(job.id)?.status).toBe('running');
    runner.control('long').resolve('ok');
    await jobs.settled(job.id);
    clock += 11;
    expect(jobs.expired(job.id)).toBe(true);
  });

  it('refuses a job past the queue bound with too-many-renders (retryable), and takes it again once there is room', async () => {
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, maxConcurrent: 1, maxQueued: 1 });
    jobs.submit('a');
    jobs.submit('b');
    let refused: unknown;
    try {
      jobs.submit('c');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(SeekframeError);
    expect((refused as SeekframeError).toJSON()).toMatchObject({
      code: 'too-many-renders',
      retryable: true,
      details: { queuedRenders: 1, maxQueued: 1 },
    });
    expect(jobs.status()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 1 });
    await tick();
    runner.control('a').resolve('A');
    await tick();
    await tick();
    expect(jobs.submit('c').status).toBe('queued');
    runner.control('b').resolve('B');
    await tick();
    await tick();
    runner.control('c').resolve('C');
    await jobs.idle();
  });

  it('shutdown cancels the waiting, aborts the running and refuses new jobs', async () => {
    const runner = manualRunner();
    const jobs = createRenderJobs({ run: runner.run, maxConcurrent: 1 });
    const running = jobs.submit('a');
    const waiting = jobs.submit('b');
    await tick();
    await jobs.shutdown({ reason: 'closing' });
    expect(jobs.get(running.id)).toMatchObject({ status: 'cancelled', reason: 'closing' });
    expect(jobs.get(waiting.id)).toMatchObject({ status: 'cancelled', reason: 'closing' });
    expect(runner.started).toEqual(['a']);
    expect(() => jobs.submit('c')).toThrowError(expect.objectContaining({ code: 'shutting-down' }));
  });
});
