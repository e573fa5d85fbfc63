import { describe, expect, it } from 'vitest';
import { parseFamilyList, scanCssFonts, scanScriptFonts } from './css-font-usage.js';
import { fontPackageId } from './font-family-names.js';

describe('scanCssFonts', () => {
  it('finds families in font-family, the font shorthand and font custom properties, without generics', () => {
    const css = `
      :root { --font-display: 'Playfair Display', serif; --font-size-xl: 48px; --font-weight: 700; }
      h1 { font: italic 700 48px/1.1 "Inter", -apple-system, sans-serif }
      p { font-family: Open Sans, Arial !important; }
      /* .x { font-family: Commented Out } */
      code { font-family: var(--mono); }
      .plain { font: inherit; }`;
    expect(scanCssFonts(css).stacks.map((s) => s.families)).toEqual([
      ['Playfair Display'],
      ['Inter', '-apple-system'],
      ['Open Sans', 'Arial'],
    ]);
  });

  it.each([
    ['a quoted string', `@import "URL";`],
    ['a single-quoted string', `@import 'URL';`],
    ['url() with double quotes', `@import url("URL");`],
    ['url() with single quotes', `@import url('URL') screen;`],
    ['url() unquoted (the ; inside it does not end it)', `@import url(URL);`],
  ])('reads a Google Fonts @import whole: %s', (_form, template) => {
    const url = 'https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono:ital,wght@0,400;1,700&display=swap';
    const usage = scanCssFonts(`${template.replace('URL', url)}\nbody { font-family: Inter }`);
    expect(usage.imports).toEqual([url]);
    expect(usage.stacks.map((s) => s.families)).toEqual([['Inter']]);
  });

  it('separates @font-face definitions and lists imports', () => {
    const css = `@import url("https://fonts.googleapis.com/css2?family=Inter"); @import 'local.css';
      @font-face { font-family: "Brand Sans"; src: url(brand.woff2); }
      .a { font-family: 'Brand Sans', system-ui }`;
    const usage = scanCssFonts(css);
    expect(usage.declared).toEqual(['Brand Sans']);
    expect(usage.imports).toEqual(['https://fonts.googleapis.com/css2?family=Inter', 'local.css']);
    expect(usage.stacks.map((s) => s.families)).toEqual([['Brand Sans']]);
    expect(css.slice(usage.stacks[0]!.offset).startsWith('font-family')).toBe(true);
  });

  it('parses family lists with quotes and commas inside quotes', () => {
    expect(parseFamilyList(`"A, B", 'C'  ,  D   E, serif`)).toEqual(['A, B', 'C', 'D E', 'serif']);
  });
});

describe('scanScriptFonts', () => {
  it('finds families scripts set on styles and canvas contexts', () => {
    const js = `el.style.fontFamily = "'Space Mono', monospace"; gsap.set('.t', { fontFamily: 'Lato' });
      ctx.font = '700 48px Montserrat, sans-serif'; const font = 'bold'; ctx.font = \`\${size}px Inter\`;`;
    expect(scanScriptFonts(js)).toEqual([['Space Mono'], ['Lato'], ['Montserrat']]);
  });
});

describe('fontPackageId', () => {
  it('maps system names to their stand-ins and other names to kebab case', () => {
    expect(fontPackageId('Arial')).toBe('arimo');
    expect(fontPackageId('Helvetica Neue')).toBe('arimo');
    expect(fontPackageId('Times New Roman')).toBe('tinos');
    expect(fontPackageId('Courier New')).toBe('cousine');
    expect(fontPackageId('-apple-system')).toBe('inter');
    expect(fontPackageId('Playfair Display')).toBe('playfair-display');
    expect(fontPackageId('JetBrains Mono')).toBe('jetbrains-mono');
    expect(fontPackageId('Source Sans 3')).toBe('source-sans-3');
  });
});
