import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  allowedCpus,
  autoWorkerCount,
  findBrowser,
  findFfmpeg,
  findOnPath,
  probeHardwareEncoder,
  readImageVersions,
} from '@seekframe/engine';
import { checkDocker } from '../docker/check-docker.js';
import { dockerImage } from '../docker/docker-image.js';
import { aggregate, safely, type CheckResult, type DoctorReport } from './check-result.js';
import { checkFontPackages, checkFonts, parseFontFamilies } from './check-fonts.js';
import { BUNDLED_FONT_PACKAGES, findMissingCdnPackages, fontPackageCheck } from '@seekframe/producer/project-files';
import { checkCdnPackages } from './check-cdn-packages.js';
import { checkCpuPinning, checkDisk, checkMemory, checkNode, checkShm, checkWorkers } from './check-system.js';
import { checkBrowser, checkFfmpeg } from './check-tools.js';
import { checkDockerUsable } from './check-docker-usable.js';
import { checkHardwareEncoder } from './check-hardware-encoder.js';
import { checkImageVersions } from './check-render-versions.js';

const run = promisify(execFile);
/** The render length `doctor` quotes the auto worker count for. */
const EXAMPLE_RENDER = { seconds: 60, fps: 30 };

export interface DoctorOptions {
  /** Renders are written below this folder (its disk is checked). */
  rendersDir: string;
  env: NodeJS.ProcessEnv;
  /** CLI version: names the Docker image `render --docker` runs. */
  version?: string;
  /** `doctor <dir>`: a project whose npm CDN packages are checked too (`shown` as the user typed it). */
  project?: { dir: string; shown: string };
}

/**
 * Gathers the facts (the engine's discovery functions, statfs, fc-list) and turns each into a
 * check. Everything runs concurrently: the browser probe takes seconds, the rest milliseconds.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const groups = await Promise.all([
    safely('node', 'Node.js', async () => [checkNode(process.versions.node)]),
    safely('browser', 'Chromium', async () => checkBrowser(await findBrowser({ env: options.env }).catch(asError))),
    safely('ffmpeg', 'ffmpeg', async () => checkFfmpeg(await findFfmpeg({ env: options.env }).catch(asError))),
    safely('fonts', 'Fonts', async () => checkFonts(await fontFamilies())),
    safely('font-packages', 'Font packages', async () => [checkFontPackages(await bundledFontPackages())]),
    safely('shm', '/dev/shm', async () => [checkShm(await filesystemSize('/dev/shm'))]),
    safely('memory', 'Memory', async () => [checkMemory(os.freemem(), os.totalmem())]),
    safely('disk', 'Disk', async () => [await diskCheck(options.rendersDir)]),
    safely('workers', 'Workers', async () => [workersCheck()]),
    safely('cpu-pinning', 'CPU pinning', async () => [checkCpuPinning(allowedCpus(), await findOnPath('taskset', options.env.PATH ?? ''))]),
    safely('hardware-encoder', 'Hardware encoder', async () => [
      checkHardwareEncoder(
        await findFfmpeg({ env: options.env })
          .then((found) => probeHardwareEncoder({ ffmpeg: found.ffmpeg }))
          .catch(asError),
      ),
    ]),
    safely('image', 'Seekframe image', async () => checkImageVersions(await readImageVersions(options.env))),
    safely('docker', 'Docker', async () => [
      checkDockerUsable(
        await checkDocker({ env: options.env, image: dockerImage(options.env, options.version ?? '0.0.0') }).catch(asError),
      ),
    ]),
    ...(options.project ? [safely('cdn-packages', 'npm CDN packages', async () => [await cdnPackagesCheck(options.project!)])] : []),
  ]);
  return aggregate(groups.flat());
}

async function cdnPackagesCheck(project: { dir: string; shown: string }): Promise<CheckResult> {
  const shown = (file: string): string => path.join(project.shown, path.relative(project.dir, file));
  const missing = await findMissingCdnPackages(project.dir);
  return checkCdnPackages(
    missing.map((m) => ({ ...m, files: m.files.map(shown) })),
    project.shown,
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

async function fontFamilies(): Promise<string[] | null> {
  try {
    const { stdout } = await run('fc-list', [':', 'family'], { timeout: 15_000, maxBuffer: 16 * 1024 * 1024 });
    return parseFontFamilies(stdout);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether each bundled @fontsource package resolves the way a render resolves it. */
async function bundledFontPackages(): Promise<{ id: string; found: boolean }[]> {
  const installed = fontPackageCheck(process.cwd());
  return Promise.all(BUNDLED_FONT_PACKAGES.map(async (id) => ({ id, found: await installed(id) })));
}

async function filesystemSize(dir: string): Promise<number | null> {
  try {
    const fs = await statfs(dir);
    return fs.blocks * fs.bsize;
  } catch {
    return null;
  }
}

/** The renders folder may not exist yet: measure the nearest folder that does. */
async function diskCheck(rendersDir: string): Promise<CheckResult> {
  let dir = path.resolve(rendersDir);
  for (;;) {
    try {
      const fs = await statfs(dir);
      return checkDisk(fs.bavail * fs.bsize, dir);
    } catch (error) {
      const parent = path.dirname(dir);
      if (parent === dir) throw error;
      dir = parent;
    }
  }
}

function workersCheck(): CheckResult {
  const cores = os.availableParallelism();
  const auto = autoWorkerCount({ cores, freeMemoryBytes: os.freemem(), frameCount: EXAMPLE_RENDER.seconds * EXAMPLE_RENDER.fps });
  return checkWorkers(cores, auto, EXAMPLE_RENDER);
}
