import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunnerEvent, RunnerJob } from '@seekframe/render-api';
import type { SandboxFile } from '../src/sandbox-port.js';

export const run = promisify(execFile);

export const ADAPTER_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_ROOT = path.resolve(ADAPTER_DIR, '../..');
export const CLI_BIN = path.join(REPO_ROOT, 'core/cli/bin/seekframe.js');

/** Bundles the in-sandbox job script from the current sources (esbuild, well under a second), into a folder of this test's own. */
export async function buildSandboxScripts(): Promise<Uint8Array> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'seekframe-job-script-'));
  try {
    await run(process.execPath, [path.join(ADAPTER_DIR, 'scripts/build-sandbox-scripts.mjs'), outDir]);
    const file = path.join(outDir, 'run-job.mjs');
    if (!existsSync(file)) throw new Error(`${file} was not built`);
    return await readFile(file);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/**
 * 160x90 at 10 fps; `title` paints a label, `bg` the background (a small white square keeps the
 * frame from being only a background, which the renderer reports as blank).
 */
export function tinyComposition(options: { duration?: number; script?: string } = {}): SandboxFile[] {
  const html = `<!doctype html>
<html data-composition-id="tiny" data-width="160" data-height="90" data-duration="${options.duration ?? 1}" data-fps="10"
  data-composition-variables='[{"id":"bg","label":"Background","type":"color","default":"#203040"}]'>
<head><style>html,body{margin:0;width:160px;height:90px}</style></head>
<body><script>document.body.style.background = window.__seekframe.getVariables().bg;</script>
<div style="position:absolute;right:0;bottom:0;width:8px;height:8px;background:#fff"></div>
${options.script ? `<script>${options.script}</script>` : ''}
</body></html>
`;
  return [{ path: 'index.html', content: html }];
}

export function runnerJob(id: string, overrides: Partial<RunnerJob['request']> = {}): RunnerJob {
  return {
    id,
    request: { variables: {}, format: 'mp4', ...overrides },
    outputKey: `renders/${id}.mp4`,
    contentType: 'video/mp4',
    limits: { maxFrames: 2000, maxRenderSeconds: 240, maxPixels: 1920 * 1080 },
  };
}

export function eventCollector(): {
  events: RunnerEvent[];
  emit: (event: RunnerEvent) => void;
  waitFor: (type: RunnerEvent['type']) => Promise<void>;
} {
  const events: RunnerEvent[] = [];
  const waiters: { type: RunnerEvent['type']; resolve: () => void }[] = [];
  return {
    events,
    emit(event) {
      events.push(event);
      for (const waiter of waiters.filter((w) => w.type === event.type)) waiter.resolve();
    },
    waitFor(type) {
      if (events.some((event) => event.type === type)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ type, resolve }));
    },
  };
}

export async function ffprobe(file: string): Promise<{ codec_name: string; width: number; height: number; nb_read_frames: string }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: [{ codec_name: string; width: number; height: number; nb_read_frames: string }] }).streams[0];
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
