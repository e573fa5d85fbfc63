/**
 * Browser entry, bundled to `dist/seekframe-runtime.js` and injected as the first script in
 * `<head>`. Everything here runs synchronously before any author script: the clock, random and
 * error capture are in place and `window.__seekframe` exists when the author's first line runs.
 */
import { resolveVariables, SeekframeError, type VariableDeclaration } from '@seekframe/composition';
import { DeclarationDefaultsSchema, InjectedConfigSchema, type InjectedConfig } from '../injected-config.js';
import type { SeekframeRuntime } from '../runtime-types.js';
import { installClipStyles } from './clip-timeline.js';
import { readRootMetadata } from './composition-root.js';
import { ErrorLog } from './error-log.js';
import { installHyperframesAnime } from './hyperframes-anime.js';
import { readFrameSetting } from './frame-settings.js';
import { PageRuntime } from './page-runtime.js';
import { runtimeApi } from './runtime-api.js';
import { RealDate } from './real-timers.js';
import { seededRandom } from './seeded-random.js';
import { VirtualClock } from './virtual-clock.js';

declare global {
  interface Window {
    __seekframeConfig?: unknown;
    __seekframe?: SeekframeRuntime;
    __hyperframes?: SeekframeRuntime;
  }
}

const DEFAULT_SEED = 0x5eedf4a3;

function newlinesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function start(win: Window & typeof globalThis): void {
  if (win.__seekframe) return; // injected twice (e.g. a server and a proxy both injecting)
  const log = new ErrorLog();
  // The runtime is written inline into <head>: every line of the page after it is reported that
  // many lines too far down. Errors in the page's own inline scripts are mapped back.
  log.listen(win, { url: win.document.URL, lines: newlinesIn(win.document.currentScript?.textContent ?? '') });
  const instance = readFrameSetting(win, '__seekframeInstance');

  let config: InjectedConfig | undefined;
  let startupError: SeekframeError | undefined;
  if (win.__seekframeConfig !== undefined) {
    const parsed = InjectedConfigSchema.safeParse(win.__seekframeConfig);
    if (parsed.success) config = parsed.data as InjectedConfig;
    else {
      const issue = parsed.error.issues[0];
      startupError = new SeekframeError(
        'invalid-runtime-config',
        `window.__seekframeConfig is invalid at "${issue?.path.join('.') ?? ''}": ${issue?.message ?? 'unknown problem'}; the server that injected the runtime passed a bad InjectedConfig`,
        { stage: 'load' },
      );
    }
  }

  // A plain page the server marked as embeddable only gets a clock when a composition embeds it; on
  // its own (opened in a tab, or the page hosting a <seekframe-player>) it keeps real time.
  if (!instance && config?.embedded === true && !embeddedInComposition(win)) return;

  const doc = win.document;
  const meta = readRootMetadata(doc);
  const mode = instance?.mode ?? config?.mode ?? 'preview';
  const seed = instance?.seed ?? config?.seed ?? DEFAULT_SEED;
  const fps = instance?.fps ?? config?.fps ?? config?.composition.fps ?? meta.fps ?? 30;
  const epochMs = instance?.epochMs ?? config?.epochMs ?? Math.floor(RealDate.now() / 1000) * 1000;
  // A plain page in an <iframe> of a composition: no length of its own, its embedder seeks it.
  const embedded = !instance && config?.embedded === true;
  // The server's 0 means the file has none: a child leaves it to its host, an entry to the timeline
  // it registers. Top level: compile-time metadata from the server wins (a script rewriting
  // data-duration changes nothing). A child instance: the host's data-duration, then its own root's.
  const configured = (value: number | undefined): number | undefined => value || undefined;
  const fixedDuration = embedded
    ? Number.POSITIVE_INFINITY
    : instance
      ? (instance.hostDuration ?? meta.duration ?? configured(config?.composition.duration))
      : (configured(config?.composition.duration) ?? meta.duration);
  // A root that is a <div> in <body> (or in <template> content) is not there yet; read it once it is,
  // else take the length of the timeline the page registers.
  let lateDuration: number | undefined;
  let timelineLength: number | undefined;
  const duration = (): number => {
    if (fixedDuration !== undefined) return fixedDuration;
    if (lateDuration === undefined && doc.readyState !== 'loading') lateDuration = readRootMetadata(doc).duration;
    return lateDuration ?? timelineLength ?? 0;
  };
  const adoptTimelineLength = (seconds: number | undefined): void => {
    if (fixedDuration === undefined && readRootMetadata(doc).duration === undefined) timelineLength = seconds;
  };
  // A child root without a size fills its host's box: the frame's viewport.
  const width = embedded
    ? win.innerWidth
    : ((instance ? meta.width : configured(config?.composition.width)) ??
      meta.width ??
      configured(config?.composition.width) ??
      win.innerWidth);
  const height = embedded
    ? win.innerHeight
    : ((instance ? meta.height : configured(config?.composition.height)) ??
      meta.height ??
      configured(config?.composition.height) ??
      win.innerHeight);

  const declarations = embedded ? [] : readDeclarations(doc, instance ? undefined : config?.declarations, log);
  // A <seekframe-player> frame: the player's variables are the newest top-level overrides.
  const player = instance ? undefined : readFrameSetting(win, '__seekframePlayer');
  const overrides = player?.variables ? { ...config?.variables, ...player.variables } : config?.variables;
  const variables = instance
    ? resolveVariables(declarations, { host: instance.hostValues })
    : resolveVariables(declarations, { overrides });

  const clock = new VirtualClock({ epochMs, onError: (error) => log.addError(error, 'timer callback') });
  clock.install(win);
  Math.random = seededRandom(seed);
  installClipStyles(doc);

  const runtime = new PageRuntime(
    win,
    {
      mode,
      seed,
      epochMs,
      fps,
      width,
      height,
      duration,
      variables,
      declarations,
      startupError,
      inheritScripts: instance?.inheritScripts ?? [],
      adoptTimelineLength,
    },
    clock,
    log,
  );
  const api = runtimeApi(runtime);
  win.__seekframe = api;
  // Compositions written for HyperFrames call window.__hyperframes.getVariables().
  win.__hyperframes = api;
  // ... and register anime.js timelines with hyperframesAnime.register(id, tl).
  installHyperframesAnime(win);
  instance?.attach(api);
}

function embeddedInComposition(win: Window): boolean {
  try {
    return win.parent !== win && win.parent.__seekframe !== undefined;
  } catch {
    return false; // cross-origin parent: not one of ours
  }
}

function readDeclarations(doc: Document, injected: VariableDeclaration[] | undefined, log: ErrorLog): VariableDeclaration[] {
  if (injected) return injected;
  const raw = doc.documentElement.getAttribute('data-composition-variables');
  if (!raw) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    log.add(`data-composition-variables in ${doc.location.href} is not valid JSON (${String(error)}); run \`seekframe lint\``);
    return [];
  }
  const parsed = DeclarationDefaultsSchema.safeParse(json);
  if (!parsed.success) {
    log.add(`data-composition-variables in ${doc.location.href} must be an array of {id, default, ...}; run \`seekframe lint\``);
    return [];
  }
  // Only id and default matter for resolution; resolveVariables reads nothing else.
  return parsed.data as unknown as VariableDeclaration[];
}

start(window);
