import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LintFinding } from '@seekframe/composition';
import { checkComposition, createProducerServer, renderComposition, type ProducerServer } from '@seekframe/producer';
import { serveLocal, type LocalRenderApi } from '@seekframe/render-api/node';
import { seekframeBin } from '../src/bin-path.js';
import { readLintInfo } from '../src/preview/project-info.js';
import { runCli } from './run-cli.js';

/**
 * One preflight (`preflightProject`), six callers: `seekframe lint`, the studio's lint panel
 * (lint.json), `seekframe check`'s lint step, the render's plan step, `seekframe serve`'s
 * preflight and the render API's preflight. The same broken projects through each must give the
 * same findings (file relative to the project, line, column, rule, severity, message): before
 * this, lint passed a project whose render was refused for a missing media file.
 */
const ROOT = (body: string, attrs = 'data-width="160" data-height="90"') =>
  `<!doctype html>\n<html data-composition-id="main" ${attrs} data-duration="1">\n<head><link rel="stylesheet" href="style.css"></head>\n<body>\n${body}\n</body>\n</html>\n`;

/** Each project and the rules its findings must have (so the comparison is never of two empty lists). */
const PROJECTS: Record<string, { files: Record<string, string>; folders?: string[]; rules: string[] }> = {
  // The case of the issue: lint said nothing, the render stopped at the missing video.
  'missing-media': {
    files: {
      'index.html': ROOT('<video src="media/clip.mp4" data-start="0" data-duration="1" muted></video>\n<img src="logo.png">'),
      'style.css': 'body { margin: 0 }',
    },
    rules: ['project/missing-file', 'project/missing-file'],
  },
  // A stylesheet's url(), a missing sub-composition, and a warning among the errors.
  'missing-parts': {
    files: {
      'index.html': ROOT(
        '<div data-composition-id="intro" data-composition-src="parts/intro.html" data-start="0" data-duration="1"></div>\n<div id="late" data-start="5" data-duration="1">late</div>',
      ),
      'style.css': 'body {\n  background: url("img/paper.png");\n}',
    },
    rules: ['project/missing-file', 'subcomposition/missing-src-file', 'timing/after-end'],
  },
  // No root size, and an image that names a folder (the server answers it 404, as a missing file).
  'no-root': {
    files: { 'index.html': ROOT('<img src="photos">', ''), 'style.css': '' },
    folders: ['photos'],
    rules: ['project/missing-file', 'root/missing-height', 'root/missing-width'],
  },
};

type Finding = Pick<LintFinding, 'file' | 'line' | 'column' | 'rule' | 'severity' | 'message'>;

let root: string;
let server: ProducerServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'seekframe-preflight-parity-'));
  for (const [name, project] of Object.entries(PROJECTS)) {
    for (const [file, text] of Object.entries(project.files)) {
      await mkdir(path.dirname(path.join(root, name, file)), { recursive: true });
      await writeFile(path.join(root, name, file), text);
    }
    for (const folder of project.folders ?? []) await mkdir(path.join(root, name, folder), { recursive: true });
  }
  server = await createProducerServer({ port: 0, root, env: {} });
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A finding as every caller's user sees it, its file relative to the project folder. */
function normal(findings: Finding[], filesFrom: string, project: string): Finding[] {
  return findings
    .map(({ file, line, column, rule, severity, message }) => ({
      file: path.relative(project, path.resolve(filesFrom, file)).split(path.sep).join('/'),
      line,
      column,
      rule,
      severity,
      message,
    }))
    .sort((a, b) => `${a.file}:${a.line}:${a.column}:${a.rule}`.localeCompare(`${b.file}:${b.line}:${b.column}:${b.rule}`));
}

describe('one preflight for every caller', () => {
  it.each(Object.keys(PROJECTS))(
    '%s: lint, the studio, check, the render, serve and the render API find the same',
    async (name) => {
      const project = path.join(root, name);

      const lint = await runCli(['lint', name, '--json'], { cwd: root });
      expect(lint.code).toBe(1);
      const reference = normal((JSON.parse(lint.stdout) as { findings: Finding[] }).findings, root, project);
      expect(reference.map((f) => f.rule).sort()).toEqual(PROJECTS[name]!.rules);

      const studio = await readLintInfo(project, path.join(project, 'index.html'));
      expect(normal(studio.findings, project, project), 'studio').toEqual(reference);

      const check = await checkComposition({ projectDir: name, cwd: root, workers: 1 });
      const checkLint = check.findings
        .filter((f) => f.check === 'lint' && f.code.startsWith('lint/'))
        .map((f) => ({
          file: f.file!.path,
          line: f.file!.line,
          column: f.file!.column,
          rule: f.code.slice('lint/'.length),
          severity: f.severity as Finding['severity'],
          message: f.message,
        }));
      expect(normal(checkLint, root, project), 'check').toEqual(reference);

      const render = await renderComposition({ projectDir: project, output: path.join(root, `${name}.mp4`) }).catch((e: unknown) => e);
      expect(render).toMatchObject({ code: 'lint-failed' });
      const rendered = (render as { details: { findings: Finding[] } }).details.findings;
      expect(normal(rendered, process.cwd(), project), 'render').toEqual(reference);

      const served = await fetch(`${server.url}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectDir: name }),
      });
      expect(served.status).toBe(400);
      const serveError = ((await served.json()) as { error: { code: string; details: { findings: Finding[] } } }).error;
      expect(serveError.code).toBe('lint-failed');
      expect(normal(serveError.details.findings, root, project), 'serve').toEqual(reference);

      let api: LocalRenderApi | undefined;
      try {
        api = await serveLocal({ compositionDir: project, runner: { cli: { command: process.execPath, args: [seekframeBin] } }, env: {} });
        const answer = await fetch(`${api.url}/api/render`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(answer.status).toBe(400);
        const apiError = ((await answer.json()) as { error: { code: string; details: { findings: Finding[] } } }).error;
        expect(apiError.code).toBe('lint-failed');
        expect(normal(apiError.details.findings, project, project), 'render API').toEqual(reference);
      } finally {
        await api?.close();
      }
    },
    120_000,
  );
});
