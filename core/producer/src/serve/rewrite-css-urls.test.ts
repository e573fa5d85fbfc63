import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRemote } from './composition-files/resolve-remote.js';
import { createNodeCompositionHost } from './node-composition-host.js';
import { rewriteCssUrls } from './rewrite-css-urls.js';

const remote = (url: string): string => `/__seekframe/remote?url=${encodeURIComponent(url)}`;

afterEach(() => vi.unstubAllGlobals());

describe('rewriteCssUrls', () => {
  it('points relative and absolute references at the remote route, against the stylesheet URL', () => {
    const base = 'https://cdn.jsdelivr.net/npm/@fontsource/inter@5/latin-400.css';
    const css = `src: url(./files/a.woff2) format('woff2'), url("../x/b.woff"); background: url('https://example.test/i.png'); mask: url(data:image/png;base64,AA); filter: url(#f);\n@import "more.css";`;
    expect(rewriteCssUrls(css, base)).toBe(
      `src: url("${remote('https://cdn.jsdelivr.net/npm/@fontsource/inter@5/files/a.woff2')}") format('woff2'), url("${remote('https://cdn.jsdelivr.net/npm/@fontsource/x/b.woff')}"); ` +
        `background: url("${remote('https://example.test/i.png')}"); mask: url(data:image/png;base64,AA); filter: url(#f);\n@import "${remote('https://cdn.jsdelivr.net/npm/@fontsource/inter@5/more.css')}";`,
    );
  });

  it('makes an @fontsource stylesheet from jsdelivr load its font files from the installed package', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new Error('the network was used')));
    const host = createNodeCompositionHost({ root: process.cwd() });
    const css = await resolveRemote('https://cdn.jsdelivr.net/npm/@fontsource/inter@5/latin-400.css', host);
    const file = 'https://cdn.jsdelivr.net/npm/@fontsource/inter@5/files/inter-latin-400-normal.woff2';
    expect(new TextDecoder().decode(css!.body)).toContain(`url("${remote(file)}")`);
    const font = await resolveRemote(file, host);
    expect(font).toMatchObject({ source: 'local', contentType: 'font/woff2' });
  });
});
