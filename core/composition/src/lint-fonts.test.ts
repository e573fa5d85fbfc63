import { describe, expect, it } from 'vitest';
import { lintProject } from './lint-project.js';

const root = (head: string, body = ''): string =>
  `<!doctype html><html data-composition-id="m" data-width="100" data-height="100" data-duration="1"><head>${head}</head><body>${body}</body></html>`;

function host(files: Record<string, string>, installed: string[]) {
  return {
    readFile: async (p: string) => files[p],
    fontPackageInstalled: async (id: string) => installed.includes(id),
  };
}

describe('fonts/unresolved-family', () => {
  it('warns once per family that nothing loads, naming the install command', async () => {
    const files = {
      'p/index.html': root(
        '<link rel="stylesheet" href="style.css"><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&family=Space+Grotesk">',
        '<p style="font-family: \'Fancy Face\', Roboto, sans-serif">x</p><p style="font-family: \'Fancy Face\'">y</p>',
      ),
      'p/style.css': `@font-face { font-family: Brand; src: url(b.woff2) }\nh1 { font-family: Brand, serif }\nh2 {\n  font-family: "Other Face", Arial, "Not Reached", sans-serif;\n}`,
    };
    const findings = (await lintProject('p/index.html', host(files, ['inter', 'roboto', 'arimo']))).filter(
      (f) => f.rule === 'fonts/unresolved-family',
    );
    expect(findings.map((f) => [f.file, f.line, f.severity])).toEqual([
      ['p/index.html', 1, 'warning'],
      ['p/index.html', 1, 'warning'],
      ['p/style.css', 4, 'warning'],
    ]);
    expect(findings[0]!.message).toContain('"Space Grotesk"');
    expect(findings[0]!.message).toContain('npm i @fontsource/space-grotesk');
    expect(findings[1]!.message).toContain('"Fancy Face"');
    expect(findings[1]!.message).toContain('falls back to "Roboto"');
    expect(findings[2]!.message).toContain('npm i @fontsource/other-face');
  });

  it('is silent when every family resolves, and without a font check in the host', async () => {
    const files = { 'index.html': root('<style>body { font-family: Montserrat, Arial, sans-serif }</style>') };
    expect((await lintProject('index.html', host(files, ['montserrat']))).filter((f) => f.rule.startsWith('fonts/'))).toEqual([]);
    const noCheck = { 'index.html': root('<style>body { font-family: Nope }</style>') };
    expect(
      (await lintProject('index.html', { readFile: async (p: string) => (noCheck as Record<string, string>)[p] })).filter((f) =>
        f.rule.startsWith('fonts/'),
      ),
    ).toEqual([]);
  });

  describe('a Google Fonts stylesheet pulled in with @import loads every family of its URL', () => {
    const url = 'https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Space+Grotesk:wght@500;700&display=swap';
    const body = '<h1 style="font-family: \'Space Grotesk\', sans-serif">x</h1><p style="font-family: Inter">y</p>';
    it.each([
      ['in a <style>, as url("…")', { 'index.html': root(`<style>@import url("${url}");</style>`, body) }],
      ['in a <style>, as a string', { 'index.html': root(`<style>@import '${url}';</style>`, body) }],
      ['in a <style>, as url(…) unquoted', { 'index.html': root(`<style>@import url(${url});</style>`, body) }],
      ['in a linked stylesheet', { 'index.html': root('<link rel="stylesheet" href="s.css">', body), 's.css': `@import url("${url}");` }],
      ['in a <link>, several families', { 'index.html': root(`<link rel="stylesheet" href="${url.replace(/&/g, '&amp;')}">`, body) }],
    ])('%s: installed, no warning; not installed, the Google Fonts warning for each family', async (_form, files) => {
      const clean = await lintProject('index.html', host(files, ['inter', 'space-grotesk']));
      expect(clean.filter((f) => f.rule === 'fonts/unresolved-family')).toEqual([]);
      const missing = (await lintProject('index.html', host(files, []))).filter((f) => f.rule === 'fonts/unresolved-family');
      expect(missing.map((f) => f.message.match(/^Google Fonts family "([^"]+)"/)?.[1])).toEqual(['Inter', 'Space Grotesk']);
    });
  });
});
