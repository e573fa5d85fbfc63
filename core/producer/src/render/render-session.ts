import { mkdtemp, rm } from 'node:fs/promises';
import {
  autoWorkerBounds,
  autoWorkerCount,
  probeMedia,
  tempFolderPrefix,
  type BrowserInfo,
  type BrowserSource,
  type MediaInfo,
  type PoolWorker,
  type RenderTuning,
  type WorkerLaunch,
} from '@seekframe/engine';
import type { RenderLimits } from '../plan/render-limits.js';
import { capWorkers } from '../plan/render-limits.js';
import type { Fps } from '../plan/render-spec.js';
import { startNetworkSandbox } from '../network/network-sandbox.js';
import { createProjectServer, type ProjectServer } from '../serve/project-server.js';
import { createRuntimeInjector } from '../serve/create-runtime-injector.js';
import { ProblemLog } from '../serve/problem-log.js';
import type { CleanupStack } from './cleanup-stack.js';
import { contextBrowser, contextFfmpeg, contextRuntimeSource, contextTuning, eventSink, type RenderContext } from './render-context.js';
import { createMediaSourceResolver } from './resolve-media-source.js';
import type { RenderEvent } from './render-events.js';
import type { Choice, RenderProfile } from '../report/render-profile.js';

/** What the project server injects into every page: the same values make the same pixels. */
export interface PageSettings {
  root: string;
  entry: string;
  variables: Record<string, unknown>;
  seed: number;
  fps: Fps;
  epochMs: number;
  network: 'open' | 'sandboxed';
  remoteTimeoutMs: number;
}

/**
 * The live parts of one render on this machine: the project server (serving the plan's page
 * settings), the browser (locked in by the network sandbox when sandboxed), the work folder, the
 * media source resolver and the problem log. Opened by the plan step and by renderFrames; when
 * renderComposition does both, the plan step's session (and its open page) is reused.
 */
export interface RenderSession {
  root: string;
  server: ProjectServer;
  problems: ProblemLog;
  browser: BrowserInfo;
  /** Where every browser of this render comes from: the context's (a warm pool behind the memory guard), else each is launched. */
  browserPool?: BrowserSource;
  workDir: string;
  sandboxed: boolean;
  ffmpeg: { ffmpeg: string; ffprobe: string; version: string };
  tuning: RenderTuning;
  emit: (event: RenderEvent) => void;
  /** The absolute URL the page uses for a planned `src`. */
  pageSrc(planned: string): string;
  /** A planned `src` as stored in the plan (see PlannedClip.src). */
  plannedSrc(pageSrc: string): string;
  /** The local file ffmpeg reads for a planned `src` (downloads land in the work folder). */
  resolveMedia(planned: string, kind: 'video' | 'audio'): Promise<string>;
  /** ffprobe once per input. */
  probe(input: string): Promise<MediaInfo>;
  /** Capture pages opened before capture (the plan step's page first); the frame pool adopts them. */
  adopt: Array<PoolWorker | WorkerLaunch>;
  /** The worker count the plan step started browsers for (the whole range), so capture uses that same count. */
  workers?: Choice<number>;
  /** The render's measurements (the render context's), when someone reads them. */
  profile?: RenderProfile;
  cleanup: CleanupStack;
}

export async function openRenderSession(
  settings: PageSettings,
  context: RenderContext,
  cleanup: CleanupStack,
  options: { browser: boolean } = { browser: true },
): Promise<RenderSession> {
  const network = context.network ?? settings.network;
  const sandboxed = network === 'sandboxed';
  const problems = context.problems ?? new ProblemLog();
  // Located meanwhile (a first call runs `ffmpeg -version`): it must not add to the start-up.
  const locating = contextFfmpeg(context);
  locating.catch(() => undefined);
  const runtimeSource = await contextRuntimeSource(context);
  const server = await createProjectServer({
    root: settings.root,
    entry: settings.entry,
    remoteTimeoutMs: settings.remoteTimeoutMs,
    publicRemoteOnly: sandboxed,
    confineToRoot: sandboxed,
    problems,
    prepareHtml: createRuntimeInjector({
      runtimeSource,
      mode: 'render',
      variables: Object.keys(settings.variables).length > 0 ? settings.variables : undefined,
      seed: settings.seed,
      fps: settings.fps.num / settings.fps.den,
      epochMs: settings.epochMs,
    }),
  });
  cleanup.add(() => server.close());
  // Mixing audio needs the server's media resolution but no browser.
  let browser = options.browser ? await contextBrowser(context) : NO_BROWSER;
  if (sandboxed && options.browser) {
    // The browser, launched with flags that let its pages reach only the project server.
    const sandbox = await startNetworkSandbox(server.origin);
    cleanup.add(() => sandbox.close());
    browser = { ...browser, extraArgs: [...(browser.extraArgs ?? []), ...sandbox.args] };
  }
  let workDir = context.workDir;
  if (!workDir) {
    const made = await mkdtemp(tempFolderPrefix('render'));
    cleanup.add(() => rm(made, { recursive: true, force: true, maxRetries: 3 }));
    workDir = made;
  }
  const ffmpeg = await locating;
  const origin = server.origin;
  const resolver = createMediaSourceResolver({ server, root: settings.root, workDir, sandboxed });
  const probes = new Map<string, Promise<MediaInfo>>();
  return {
    root: settings.root,
    server,
    problems,
    browser,
    ...(context.browsers ? { browserPool: context.browsers } : {}),
    ...(context.profile ? { profile: context.profile } : {}),
    workDir,
    sandboxed,
    ffmpeg,
    tuning: contextTuning(context),
    emit: eventSink(context),
    pageSrc: (planned) => (planned.startsWith('/') ? `${origin}${planned}` : planned),
    plannedSrc: (src) => (src.startsWith(`${origin}/`) ? src.slice(origin.length) : src),
    resolveMedia(planned, kind) {
      return resolver(planned.startsWith('/') ? `${origin}${planned}` : planned, kind);
    },
    probe(input) {
      let probe = probes.get(input);
      if (!probe) probes.set(input, (probe = probeMedia(input, { ffprobe: ffmpeg.ffprobe })));
      return probe;
    },
    adopt: [],
    cleanup,
  };
}

const NO_BROWSER: BrowserInfo = { path: '', source: 'system', kind: 'chromium', version: '', supportsBeginFrame: false };

/** `workers: auto` from the frames to render and the tuning's recommendation; never above the limit or the frames. */
export function resolveWorkers(workers: 'auto' | number, frames: number, tuning: RenderTuning, limits: RenderLimits | undefined): number {
  const count =
    workers === 'auto'
      ? autoWorkerCount({ frameCount: frames, ...(tuning.workers ? { recommended: tuning.workers } : {}) })
      : Math.min(workers, frames);
  return Math.max(1, capWorkers(count, limits));
}

/** resolveWorkers with the reason, in words, for the render report. */
export function chooseWorkers(
  workers: 'auto' | number,
  frames: number,
  tuning: RenderTuning,
  limits: RenderLimits | undefined,
): Choice<number> {
  const value = resolveWorkers(workers, frames, tuning, limits);
  const capped = limits?.maxWorkers !== undefined && value === limits.maxWorkers ? `, capped by --max-workers ${limits.maxWorkers}` : '';
  if (workers !== 'auto') {
    const reason =
      value < workers
        ? `${workers} requested, ${value} used: no more workers than ${value === frames ? 'frames' : 'allowed'}${capped}`
        : `${workers} requested with --workers${capped}`;
    return { value, requested: String(workers), reason };
  }
  const bounds = autoWorkerBounds({ frameCount: frames, ...(tuning.workers ? { recommended: tuning.workers } : {}) });
  const cpu = bounds.recommended
    ? `${bounds.byCpu} recommended by the saved benchmark`
    : `${bounds.byCpu} for ${bounds.cores} CPU cores (cores - 2, at least 2)`;
  const limiting = [
    bounds.byFrames < bounds.byCpu ? `one per 30 frames allows ${bounds.byFrames} for ${frames} frames` : '',
    bounds.byMemory < bounds.byCpu ? `free memory allows ${bounds.byMemory} (512 MB each)` : '',
  ].filter(Boolean);
  return { value, requested: 'auto', reason: `auto: ${cpu}${limiting.length > 0 ? `; ${limiting.join('; ')}` : ''}${capped}` };
}
