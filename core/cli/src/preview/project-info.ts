import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectComposition, preflightProject, type CompositionMetadata } from '@seekframe/composition';
import { buildLintReport, type LintReport } from '../lint/format-lint-report.js';
import { preflightHost } from '@seekframe/producer/project-files';

/** `GET /__seekframe/preview/project.json`: what the preview page needs to show the entry. */
export type ProjectInfo = Pick<CompositionMetadata, 'id' | 'width' | 'height' | 'duration' | 'fps' | 'variables'> & {
  /** URL path of the entry HTML on the preview server. */
  entry: string;
};

function entryUrlPath(root: string, entryFile: string): string {
  return '/' + path.relative(root, entryFile).split(path.sep).map(encodeURIComponent).join('/');
}

/** Read fresh on every request: the file may have changed since the last reload. Never throws on a bad composition (lint says why). */
export async function readProjectInfo(root: string, entryFile: string): Promise<ProjectInfo> {
  const html = await readFile(entryFile, 'utf8');
  const { metadata } = inspectComposition(html, { file: path.relative(root, entryFile) });
  return {
    entry: entryUrlPath(root, entryFile),
    id: metadata.id,
    width: metadata.width,
    height: metadata.height,
    duration: metadata.duration,
    ...(metadata.fps === undefined ? {} : { fps: metadata.fps }),
    variables: metadata.variables,
  };
}

/**
 * `GET /__seekframe/preview/lint.json`: the `seekframe lint --json` report, files relative to the
 * project folder: the one preflight the render runs (lint's rules and the files the pages load).
 */
export async function readLintInfo(root: string, entryFile: string): Promise<LintReport> {
  return buildLintReport(await preflightProject(entryFile, preflightHost(root)), root);
}
