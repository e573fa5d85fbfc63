import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a server a test starts in another process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface WaitUntilAnswersOptions {
  /** What is starting, for the error ("uvicorn", "the container's server"). */
  name: string;
  /** Default 60 s: a cold start on a busy machine. */
  timeoutMs?: number;
  /** The starting process's exit code, null while it runs: an exit ends the wait at once. */
  exitCode?: () => number | null;
  /** More to say when it never answers (the process's output, the container's logs). */
  details?: () => string | Promise<string>;
}

/** Polls `url` until it answers 2xx; throws, naming the server, when it exits first or never answers in time. */
export async function waitUntilAnswers(url: string, options: WaitUntilAnswersOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const more = async (): Promise<string> => {
    const details = await options.details?.();
    return details ? `:\n${details}` : '';
  };
  for (;;) {
    const code = options.exitCode?.() ?? null;
    if (code !== null) throw new Error(`${options.name} exited with ${code} before answering ${url}${await more()}`);
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${options.name} did not answer ${url} within ${timeoutMs / 1000} s${await more()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * `work`, or a failure naming what it waited for once `ms` have passed: every wait of the contract
 * suite is bounded by what it waits for, never only by vitest's test timeout (which names nothing).
 */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms / 1000} s for ${what}`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
