import { describe, expect, it } from 'vitest';
import { pageScriptError, remoteRequestError } from './page-script-error.js';

describe('page error classification', () => {
  const origin = 'http://127.0.0.1:4000';
  const errors = [
    'Console error (http://127.0.0.1:4000/index.html): Failed to load resource: 404',
    `Request failed: ${origin}/missing.png (net::ERR_FAILED)`,
    'HTTP 404 for http://127.0.0.1:4000/missing.png',
    'Request failed: https://example.test/cancelled.js (net::ERR_ABORTED)',
  ];

  it('fails on uncaught exceptions only, quoting the first', () => {
    expect(pageScriptError(errors, `${origin}/index.html`)).toBeNull();
    const error = pageScriptError([...errors, 'Uncaught error in page: boom', 'TypeError: x is undefined (timer callback)'], `${origin}/index.html`);
    expect(error).toMatchObject({ code: 'page-script-error', stage: 'capture' });
    expect(error?.message).toContain('boom (and 1 more)');
  });

  it('names a remote URL the page fetched on its own, ignoring local and aborted requests', () => {
    expect(remoteRequestError(errors, origin)).toBeNull();
    const error = remoteRequestError([...errors, 'Request failed: https://fonts.example.test/a.woff2 (net::ERR_NAME_NOT_RESOLVED)'], origin);
    expect(error).toMatchObject({ code: 'remote-asset-failed', details: { url: 'https://fonts.example.test/a.woff2' } });
    expect(error?.message).toContain('ERR_NAME_NOT_RESOLVED');
  });
});
