import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCompositionHost } from '../node-composition-host.js';
import { injectNamedFonts, NAMED_FONTS_ATTRIBUTE, type NamedFontsContext } from './inject-named-fonts.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'seekframe-fonts-'));
  await writeFile(
    path.join(root, 'style.css'),
    ':root { --font-text: "Times New Roman", serif }\n@font-face { font-family: Brand; src: url(b.woff2) }',
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** The context the rule gives injectNamedFonts for index.html, with a Node host on the project. */
function context(options: { confineToRoot?: boolean } = {}): NamedFontsContext {
  const host = createNodeCompositionHost({ root, ...options });
  return {
    file: 'index.html',
    findFont: host.findFont,
    readStylesheet: async (file) => {
      const found = await host.projectFile(file);
      return found && !(found instanceof Response) ? found.text() : undefined;
    },
  };
}

const families = (html: string): string[] => [...new Set([...html.matchAll(/font-family: "([^"]+)"/g)].map((m) => m[1] as string))];

describe('injectNamedFonts', () => {
  it('adds @font-face rules for named families that nothing loads, under the authored name', async () => {
    const html =
      `<!doctype html><html><head><link rel="stylesheet" href="style.css"><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"></head>` +
      `<body><template><p style="font-family: Arial">x</p></template><p style="font-family: Brand, Inter, 'No Such Face', Poppins">y</p></body></html>`;
    const out = await injectNamedFonts(html, context());
    expect(out.indexOf(`<style ${NAMED_FONTS_ATTRIBUTE}>`)).toBe(out.indexOf('<head>') + '<head>'.length);
    // Inter comes from its Google Fonts link, Brand from its @font-face: neither is injected again.
    expect(families(out).sort()).toEqual(['Arial', 'Poppins', 'Times New Roman']);
    expect(out).toContain('src: url(/__seekframe/fonts/arimo/arimo-latin-400-normal.woff2)');
    expect(out).toContain('src: url(/__seekframe/fonts/tinos/tinos-latin-700-italic.woff2)');
  });

  it('leaves a document that names nothing untouched', async () => {
    const html = '<!doctype html><html><head></head><body style="font-family: sans-serif">x</body></html>';
    expect(await injectNamedFonts(html, context())).toBe(html);
  });

  it('confined (server renders): a stylesheet symlinked out of the project is not read', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'seekframe-fonts-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.css'), 'p { font-family: Lato }');
      await symlink(path.join(outside, 'secret.css'), path.join(root, 'linked.css'));
      const html = '<!doctype html><html><head><link rel="stylesheet" href="linked.css"></head><body>x</body></html>';
      // Trusted renders follow the link (as the browser does); confined ones never open it.
      expect(families(await injectNamedFonts(html, context()))).toEqual(['Lato']);
      expect(await injectNamedFonts(html, context({ confineToRoot: true }))).toBe(html);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
