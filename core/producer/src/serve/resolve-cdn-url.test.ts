import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { parseCdnUrl, packageSearchRoots, resolveCdnUrl } from './resolve-cdn-url.js';

describe('CDN URL mapping', () => {
  it('parses jsdelivr and unpkg URLs, scoped packages included', () => {
    expect(parseCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js')).toEqual({ pkg: 'gsap', version: '3.12.5', file: 'dist/gsap.min.js' });
    expect(parseCdnUrl('https://unpkg.com/@scope/pkg@1.2.0/a/b.js?module')).toEqual({ pkg: '@scope/pkg', version: '1.2.0', file: 'a/b.js' });
    expect(parseCdnUrl('https://unpkg.com/gsap')).toEqual({ pkg: 'gsap', version: undefined, file: '' });
    expect(parseCdnUrl('https://example.com/npm/gsap@3/x.js')).toBeNull();
  });

  it('maps gsap to the copy installed with Seekframe, from any project folder', async () => {
    const roots = packageSearchRoots(os.tmpdir());
    const file = await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js', roots);
    expect(file).toMatch(/node_modules[\\/]gsap[\\/]dist[\\/]gsap\.min\.js$/);
    expect(await resolveCdnUrl('https://unpkg.com/gsap', roots)).toMatch(/gsap[\\/]dist[\\/]gsap\.js$/);
  });

  it('leaves other majors, unknown packages, missing files and traversal to the network', async () => {
    const roots = packageSearchRoots(os.tmpdir());
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@2.1.3/dist/gsap.min.js', roots)).toBeNull();
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/no-such-pkg-xyz@1/x.js', roots)).toBeNull();
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3/dist/nope.js', roots)).toBeNull();
    expect(await resolveCdnUrl(`https://cdn.jsdelivr.net/npm/gsap@3/..%2F..${path.sep}package.json`, roots)).toBeNull();
  });
});
