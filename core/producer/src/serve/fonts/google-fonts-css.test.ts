import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRemote } from '../composition-files/resolve-remote.js';
import { createNodeCompositionHost } from '../node-composition-host.js';

const host = createNodeCompositionHost({ root: process.cwd() });
const text = (body: Uint8Array): string => new TextDecoder().decode(body);

afterEach(() => vi.unstubAllGlobals());

describe('Google Fonts stylesheets', () => {
  it('are written from the installed @fontsource packages without touching the network', async () => {
    const network = vi.fn(() => Promise.reject(new Error('the network was used')));
    vi.stubGlobal('fetch', network);
    const url = 'https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Playfair+Display:ital@1&family=Nope+Sans&display=swap';
    // The host's network is open and goes through the stubbed fetch, so any network use fails the test.
    const asset = await resolveRemote(url, host);
    expect(network).not.toHaveBeenCalled();
    expect(asset).toMatchObject({ source: 'local', contentType: 'text/css; charset=utf-8' });
    const css = text(asset!.body);
    const faces = css.match(/@font-face \{[^}]*\}/g) ?? [];
    // Inter: 400 and 700, every subset the package has (7), normal only.
    expect(faces.filter((f) => f.includes('"Inter"'))).toHaveLength(14);
    expect(css).toContain('font-weight: 700; font-display: swap; src: url(/__seekframe/fonts/inter/inter-latin-700-normal.woff2)');
    expect(faces.filter((f) => f.includes('"Inter"') && f.includes('italic'))).toEqual([]);
    expect(faces.filter((f) => f.includes('"Playfair Display"')).every((f) => f.includes('font-style: italic; font-weight: 400;'))).toBe(
      true,
    );
    expect(css).toContain('Nope Sans: not installed locally (npm i @fontsource/nope-sans)');
  });

  it('answer the older css API too, and pick the nearest weight a package has', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new Error('the network was used')));
    const asset = await resolveRemote('https://fonts.googleapis.com/css?family=Lato:450', host);
    const css = text(asset!.body);
    expect(css).toContain('src: url(/__seekframe/fonts/lato/lato-latin-400-normal.woff2)');
    expect(css).not.toContain('-700-');
  });
});
