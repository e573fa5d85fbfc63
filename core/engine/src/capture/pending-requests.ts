import type { HTTPRequest, Page } from 'puppeteer-core';

/** URLs the page requested that have not finished yet: names the culprit when loading hangs. */
export function trackPendingRequests(page: Page): () => string[] {
  const pending = new Set<HTTPRequest>();
  page.on('request', (request) => pending.add(request));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  return () => [...pending].map((request) => request.url());
}
