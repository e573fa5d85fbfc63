import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import {
  extractCompositionMetadata,
  formatFinding,
  lintProject,
  resolveSourcePath,
  resolveTiming,
  resolveVariables,
} from '@seekframe/composition';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The host a Node CLI would pass: real files, undefined when absent. */
const diskHost = (root: string) => ({
  readFile: async (path: string): Promise<string | undefined> => {
    try {
      return await readFile(`${root}/${path}`, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
});

test('a clean three-level project on disk lints clean and every file is read once', async () => {
  const reads: string[] = [];
  const host = diskHost(fixtures);
  const findings = await lintProject('clean-project/index.html', {
    readFile: async (path) => {
      reads.push(path);
      return host.readFile(path);
    },
  });
  expect(findings.map(formatFinding)).toEqual([]);
  expect(reads.sort()).toEqual([
    'clean-project/index.html',
    'clean-project/parts/badge.html',
    'clean-project/scenes/intro.html',
    'clean-project/scenes/outro.html',
  ]);
});

test('the same project, metadata and timing as the producer/runtime would compute them', async () => {
  const html = await readFile(`${fixtures}/clean-project/index.html`, 'utf8');
  const metadata = extractCompositionMetadata(html, { file: 'index.html' });
  expect(metadata).toMatchObject({ id: 'promo', width: 640, height: 360, duration: 8, fps: 30 });
  expect(metadata.variables.map((v) => v.type)).toEqual(['string', 'color', 'number', 'boolean', 'enum']);
  expect(resolveVariables(metadata.variables, { overrides: { headline: 'Hi' } })).toEqual({
    headline: 'Hi',
    accent: '#ff8800',
    speed: 1,
    dark: true,
    layout: 'split',
  });

  // Child durations come from the child files, as lintProject does for hosts without data-duration.
  const childDuration = async (src: string) =>
    extractCompositionMetadata(await readFile(`${fixtures}/${resolveSourcePath('clean-project/index.html', src)}`, 'utf8')).duration;
  const items = [
    ...metadata.clips,
    ...(await Promise.all(metadata.subCompositions.map(async (s) => ({ ...s, duration: s.duration ?? (await childDuration(s.src)) })))),
  ];
  const timing = resolveTiming(items);
  expect(timing.findings).toEqual([]);
  const byId = Object.fromEntries(timing.items.filter((r) => r.item.id).map((r) => [r.item.id, [r.start, r.end]]));
  expect(byId).toEqual({ title: [0, 2], 'intro-a': [2, 4.5], 'intro-b': [5, 7.5], outro: [4.5, 6] });
});

test('breaking the project on disk is reported against the right file', async () => {
  const host = diskHost(fixtures);
  const findings = await lintProject('clean-project/index.html', {
    readFile: async (path) => (path.endsWith('badge.html') ? undefined : host.readFile(path)),
  });
  expect(findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
    'clean-project/scenes/intro.html:6:3 subcomposition/missing-src-file',
    'clean-project/scenes/outro.html:4:3 subcomposition/missing-src-file',
  ]);
});
