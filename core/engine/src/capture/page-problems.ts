import type { Page } from 'puppeteer-core';

/**
 * Something that went wrong in a page, as data: the producer decides what fails a render from
 * the kind, never by parsing a message. Each carries the URL involved so the user can find it.
 */
export type PageProblem =
  /** An exception no page code caught. */
  | { kind: 'uncaught-error'; message: string }
  /** console.error (libraries log harmless ones: never fatal by itself). */
  | { kind: 'console-error'; message: string; url?: string }
  /** A request the browser could not complete (`reason` is Chromium's, e.g. net::ERR_NAME_NOT_RESOLVED). */
  | { kind: 'request-failed'; url: string; reason: string }
  /** A response with status 400 or more. */
  | { kind: 'http-error'; url: string; status: number };

/** One line for messages and logs. */
export function describePageProblem(problem: PageProblem): string {
  switch (problem.kind) {
    case 'uncaught-error':
      return `Uncaught error in page: ${problem.message}`;
    case 'console-error':
      return `Console error${problem.url ? ` (${problem.url})` : ''}: ${problem.message}`;
    case 'request-failed':
      return `Request failed: ${problem.url} (${problem.reason})`;
    case 'http-error':
      return `HTTP ${problem.status} for ${problem.url}`;
  }
}

/** The same problem seen by two workers is one problem. */
export function pageProblemKey(problem: PageProblem): string {
  return JSON.stringify([
    problem.kind,
    'message' in problem ? problem.message : '',
    'url' in problem ? (problem.url ?? '') : '',
    'reason' in problem ? problem.reason : '',
    'status' in problem ? problem.status : 0,
  ]);
}

/** Collects every problem of a page from its events: uncaught exceptions, console errors, failed requests, HTTP errors. */
export function collectPageProblems(page: Page): () => PageProblem[] {
  const problems: PageProblem[] = [];
  page.on('pageerror', (error) => {
    problems.push({ kind: 'uncaught-error', message: error instanceof Error ? error.message : String(error) });
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    problems.push({ kind: 'console-error', message: message.text(), ...(where ? { url: where } : {}) });
  });
  page.on('requestfailed', (request) => {
    problems.push({ kind: 'request-failed', url: request.url(), reason: request.failure()?.errorText ?? 'unknown reason' });
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push({ kind: 'http-error', url: response.url(), status: response.status() });
  });
  return () => [...problems];
}
