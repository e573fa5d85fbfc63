import { describe, expect, it } from 'vitest';
import type { PageProblem } from '@seekframe/engine';
import { pageScriptError, remoteRequestError } from './page-script-error.js';

describe('page problem classification', () => {
  const origin = 'http://127.0.0.1:4000';
  const problems: PageProblem[] = [
    { kind: 'console-error', url: 'http://127.0.0.1:4000/index.html', message: 'Failed to load resource: 404' },
    { kind: 'request-failed', url: `${origin}/missing.png`, reason: 'net::ERR_FAILED' },
    { kind: 'http-error', url: 'http://127.0.0.1:4000/missing.png', status: 404 },
    { kind: 'request-failed', url: 'https://example.test/cancelled.js', reason: 'net::ERR_ABORTED' },
    // A console message that merely looks like an exception is still a console message.
    { kind: 'console-error', message: 'Uncaught error in page: not thrown, only logged' },
  ];

  it('fails on uncaught exceptions only, quoting the first', () => {
    expect(pageScriptError(problems, `${origin}/index.html`)).toBeNull();
    const error = pageScriptError(
      [...problems, { kind: 'uncaught-error', message: 'boom' }, { kind: 'uncaught-error', message: 'TypeError: x is undefined' }],
      `${origin}/index.html`,
    );
    expect(error).toMatchObject({ code: 'page-script-error', stage: 'capture' });
    expect(error?.message).toContain('threw: boom (and 1 more)');
  });

  it('names a remote URL the page fetched on its own, ignoring local and aborted requests', () => {
    expect(remoteRequestError(problems, origin)).toBeNull();
    // A console message quoting a failed request is not a failed request.
    expect(
      remoteRequestError([{ kind: 'console-error', message: 'Request failed: https://x.test/a.js (net::ERR_FAILED)' }], origin),
    ).toBeNull();
    const error = remoteRequestError(
      [...problems, { kind: 'request-failed', url: 'https://fonts.example.test/a.woff2', reason: 'net::ERR_NAME_NOT_RESOLVED' }],
      origin,
    );
    expect(error).toMatchObject({ code: 'remote-asset-failed', details: { url: 'https://fonts.example.test/a.woff2' } });
    expect(error?.message).toContain('ERR_NAME_NOT_RESOLVED');
  });
});
