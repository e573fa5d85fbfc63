import type { Page } from 'puppeteer-core';

/**
 * Collects everything that went wrong in a page: uncaught exceptions, console errors, failed
 * requests and HTTP error responses, each with the URL so the user can find the broken asset.
 */
export function collectPageErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    errors.push(`Uncaught error in page: ${error instanceof Error ? error.message : String(error)}`);
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    errors.push(`Console error${where ? ` (${where})` : ''}: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    errors.push(`Request failed: ${request.url()} (${request.failure()?.errorText ?? 'unknown reason'})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return () => [...errors];
}
