import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathScrubber, scrubEvent } from './client-safe-error.js';

describe('createPathScrubber', () => {
  const root = '/srv/seekframe/projects';
  const scrub = createPathScrubber({ root, outputsDir: path.join(root, '.seekframe/outputs') });

  it('names project files relative to the root and outputs by token', () => {
    expect(scrub(`${root}/intro/index.html has data-duration="0"`)).toBe('intro/index.html has data-duration="0"');
    expect(scrub(`ffmpeg was killed while encoding ${root}/.seekframe/outputs/abc.mp4 (mp4)`)).toBe(
      'ffmpeg was killed while encoding <outputs>/abc.mp4 (mp4)',
    );
  });

  it('drops our temp folders and shortens any other absolute path to its name', () => {
    expect(scrub(`cannot read ${path.join(os.tmpdir(), 'seekframe-inline-a1B2c3')}/index.html`)).toBe('cannot read index.html');
    expect(scrub('Could not start the browser at /usr/lib/chromium/chromium: boom')).toBe(
      'Could not start the browser at …/chromium: boom',
    );
  });

  it('shortens a path under any top folder this machine has, not only the usual ones', () => {
    // /lib, /bin or /boot on Debian: none is in the built-in list, all are read from `/`.
    const usual = new Set([
      'tmp',
      'var',
      'home',
      'root',
      'srv',
      'opt',
      'usr',
      'etc',
      'mnt',
      'data',
      'work',
      'private',
      'Users',
      'proc',
      'dev',
      'run',
      'app',
      'media',
      'nix',
      'snap',
    ]);
    const other = readdirSync('/').find((name) => /^\w+$/.test(name) && !usual.has(name));
    expect(other).toBeDefined();
    expect(scrub(`cannot open /${other}/x-42/secret.cfg`)).toBe('cannot open …/secret.cfg');
  });

  it('leaves URLs, routes and frame rates alone', () => {
    const text = 'HTTP 404 for http://127.0.0.1:4000/assets/a.png; see GET /render/queue; fps 30000/1001';
    expect(scrub(text)).toBe(text);
  });

  it('scrubs error events deeply, details included', () => {
    const event = scrubEvent(
      {
        type: 'error',
        error: {
          code: 'render-failed',
          message: `${root}/a.html`,
          retryable: false,
          details: { file: `${root}/a.html`, list: [`${root}/b.html`] },
        },
      },
      scrub,
    );
    expect(event).toEqual({
      type: 'error',
      error: { code: 'render-failed', message: 'a.html', retryable: false, details: { file: 'a.html', list: ['b.html'] } },
    });
  });
});
