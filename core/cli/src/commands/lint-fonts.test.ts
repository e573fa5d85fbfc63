import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';

let dir: string;
const html = (style: string): string =>
  `<!doctype html><html data-composition-id="f" data-width="160" data-height="90" data-duration="1"><head><style>${style}</style></head><body>x</body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-lint-fonts-'));
  await writeFile(
    path.join(dir, 'index.html'),
    html(`h1 { font-family: 'Bricolage Grotesque', Montserrat, sans-serif } p { font-family: Arial }`),
  );
  // A project-installed package (the project's node_modules is searched first).
  await mkdir(path.join(dir, 'own', 'node_modules', '@fontsource', 'bricolage-grotesque', 'files'), { recursive: true });
  await writeFile(path.join(dir, 'own', 'index.html'), html(`h1 { font-family: 'Bricolage Grotesque' }`));
  const pkg = path.join(dir, 'own', 'node_modules', '@fontsource', 'bricolage-grotesque');
  await writeFile(path.join(pkg, 'package.json'), '{"name":"@fontsource/bricolage-grotesque","version":"5.0.0"}');
  await writeFile(
    path.join(pkg, 'metadata.json'),
    '{"family":"Bricolage Grotesque","subsets":["latin"],"weights":[400],"styles":["normal"]}',
  );
  await writeFile(path.join(pkg, 'unicode.json'), '{"latin":"U+0000-00FF"}');
  await writeFile(path.join(pkg, 'files', 'bricolage-grotesque-latin-400-normal.woff2'), 'not a real font, lint only checks presence');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe lint: fonts', () => {
  it('warns about a family nothing provides, with the install command, and exits 0', async () => {
    const run = await runCli(['lint', '--json', '.'], { cwd: dir });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { findings: { rule: string; severity: string; message: string }[] };
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({ rule: 'fonts/unresolved-family', severity: 'warning' });
    expect(report.findings[0]!.message).toContain('font-family "Bricolage Grotesque"');
    expect(report.findings[0]!.message).toContain('npm i @fontsource/bricolage-grotesque');
  });

  it('is clean once the project installs the package', async () => {
    const run = await runCli(['lint', '--json', 'own'], { cwd: dir });
    expect(JSON.parse(run.stdout)).toEqual({ findings: [], errors: 0, warnings: 0, notes: 0 });
  });
});
