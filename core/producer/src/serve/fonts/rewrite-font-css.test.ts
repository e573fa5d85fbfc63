import { describe, expect, it } from 'vitest';
import { packageSearchRoots } from '../resolve-cdn-url.js';
import { findFontPackage } from './font-packages.js';
import { rewriteFontCss } from './rewrite-font-css.js';

const searchRoots = packageSearchRoots(process.cwd());
const findFont = (id: string) => findFontPackage(id, searchRoots);

describe('rewriteFontCss', () => {
  it('points Google Fonts @import at the project server', async () => {
    const css = `@import url('https://fonts.googleapis.com/css2?family=Inter&display=swap');\n@import "//fonts.googleapis.com/css?family=Roboto";\nbody{}`;
    expect(await rewriteFontCss(css, findFont)).toBe(
      `@import url("/__seekframe/remote?url=${encodeURIComponent('https://fonts.googleapis.com/css2?family=Inter&display=swap')}");\n` +
        `@import url("/__seekframe/remote?url=${encodeURIComponent('https://fonts.googleapis.com/css?family=Roboto')}");\nbody{}`,
    );
  });

  it('replaces fonts.gstatic.com faces with the same subset of the installed package', async () => {
    const latin =
      'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD';
    const css = `/* latin */\n@font-face {\n  font-family: 'Montserrat';\n  font-style: normal;\n  font-weight: 400 700;\n  font-display: swap;\n  src: url(https://fonts.gstatic.com/s/montserrat/v29/abc.woff2) format('woff2');\n  unicode-range: ${latin};\n}\n@font-face { font-family: 'Unknown Face'; src: url(https://fonts.gstatic.com/s/unknown/v1/x.woff2); }`;
    const out = await rewriteFontCss(css, findFont);
    const faces = out.match(/@font-face \{[^}]*montserrat[^}]*\}/g) ?? [];
    expect(faces.map((f) => /montserrat-[\w-]+\.woff2/.exec(f)?.[0])).toEqual([
      'montserrat-latin-400-normal.woff2',
      'montserrat-latin-500-normal.woff2',
      'montserrat-latin-600-normal.woff2',
      'montserrat-latin-700-normal.woff2',
    ]);
    expect(out).not.toContain('gstatic.com/s/montserrat');
    expect(out).toContain('https://fonts.gstatic.com/s/unknown/v1/x.woff2');
  });
});
