/**
 * The preview studio's browser code (served as `app.js`, bundled by scripts/bundle-preview-app.mjs
 * into dist/preview/preview-app.js): player, frame-exact transport, timeline, inspector, render
 * panel, variables and lint, and live reload over SSE that keeps the frame, selection and zoom.
 * It talks only to `<seekframe-player>` and the preview and studio routes. Frame N is shown at
 * `frameTime(N, fps)`, the time the render seeks for its frame N (@seekframe/composition).
 * Type-checked against the DOM (src/preview/browser/tsconfig.json); no `node:` imports.
 */
import { defaultFps, frameAt, frameCount, frameTime, type Fps, type VariableDeclaration } from '@seekframe/composition';
import type { SeekframePlayer } from '@seekframe/player';
import { PREVIEW_ROUTE } from '../preview-route.js';
import type { SourceInfo, StudioInfo } from '../studio/studio-types.js';
import { previewJson, studioJson } from './api.js';
import { clipKeys, matchSources } from './clip-source.js';
import { element, isTextEntry } from './dom.js';
import { showInspector, type StudioClip } from './inspector.js';
import { showLint, type Finding } from './lint-panel.js';
import { RenderPanel } from './render-panel.js';
import { readPlace, writePlace, type StudioPlace } from './studio-hash.js';
import { clipFrames } from './timeline-layout.js';
import { TimelineView } from './timeline-view.js';
import { formatSeconds, formatTimecode, parseTimecode } from './timecode.js';
import { VariablesPanel } from './variables-panel.js';

/** `project.json` (core/cli/src/preview/project-info.ts), the parts this page reads. */
interface ProjectInfo {
  entry: string;
  width: number;
  height: number;
  fps?: number;
  variables: VariableDeclaration[];
}

const player = element<SeekframePlayer>('player');
const status = element('status');
const frameInput = element<HTMLInputElement>('frame');
const timecodeInput = element<HTMLInputElement>('timecode');

let fps: Fps = { num: 30, den: 1 };
let clips: StudioClip[] = [];
let selected: string | null = null;
let studio: StudioInfo | undefined;
let source: SourceInfo | undefined;
let findings: Finding[] = [];
/** The frame asked for while its seek is still painting: quick key presses add up from it. */
let pendingFrame: number | null = null;
let ready = false;
let reloading = false;
/** Where to go once the first composition is ready (from the URL fragment). */
let restore: StudioPlace | null = readPlace(location.hash);

const variables = new VariablesPanel(element<HTMLFormElement>('variables'), (values) => {
  player.variables = values;
  renderPanel.showVariables(values);
});
const renderPanel = new RenderPanel(element('render-panel'), {
  variables: () => variables.current,
  fpsChanged: (rate) => {
    fps = rate;
    rebuild();
  },
});
const timeline = new TimelineView({
  seek: (t) => goToFrame(frameAt(t, fps)),
  select: (key, t) => select(key, t),
  zoomChanged: () => savePlace(),
});

const lastFrame = (): number => Math.max(0, frameCount(player.duration, fps) - 1);
const currentFrame = (): number => pendingFrame ?? Math.min(frameAt(player.currentTime, fps), lastFrame());

function goToFrame(frame: number): void {
  if (!ready) return;
  const target = Math.min(Math.max(0, Math.round(frame)), lastFrame());
  player.pause();
  pendingFrame = target;
  showTime(frameTime(target, fps));
  player
    .seek(frameTime(target, fps))
    .catch(() => undefined)
    .finally(() => {
      if (pendingFrame === target) pendingFrame = null;
    });
}

function showTime(t: number): void {
  const frame = currentFrame();
  const last = lastFrame();
  const timecode = formatTimecode(frame, fps);
  frameInput.max = String(last);
  if (document.activeElement !== frameInput) frameInput.value = String(frame);
  if (document.activeElement !== timecodeInput) timecodeInput.value = timecode;
  element('frame-count').textContent = `/ ${last}`;
  element('time').textContent = formatSeconds(t, player.duration);
  timeline.setTime(t, frame, last, `frame ${frame}, ${timecode}`);
  savePlace();
}

function savePlace(): void {
  // Not on every frame of playback (browsers throttle history updates); the pause saves it.
  if (!ready || restore || !player.paused) return;
  history.replaceState(null, '', writePlace({ frame: currentFrame(), ...(selected ? { clip: selected } : {}), zoom: timeline.zoom }));
}

/** Shows `key` as selected (block, outline, inspector) without moving the playhead. */
function applySelection(key: string | null): StudioClip | undefined {
  const clip = clips.find((c) => c.key === key);
  selected = clip ? clip.key : null;
  timeline.setSelected(selected);
  player.highlight(clip?.element ?? null);
  showSelection();
  return clip;
}

/** A block was chosen: select it and show it (at the pointer's time, else its first frame when the playhead is outside it). */
function select(key: string | null, at?: number): void {
  const clip = applySelection(key);
  if (clip && at !== undefined) goToFrame(frameAt(at, fps));
  else if (clip) {
    // From the keyboard: show the clip, so the outline is on a visible element.
    const { first, last } = clipFrames(clip.start, clip.end, fps);
    const frame = currentFrame();
    if (frame < first || frame > last) goToFrame(first);
  }
  savePlace();
}

function showSelection(): void {
  const clip = clips.find((c) => c.key === selected);
  showInspector(element('inspector'), clip, { fps, studio, file: source?.file ?? '', findings });
}

/** Reads the clips from the player (the runtime's own timing) and redraws what depends on them. */
function rebuild(): void {
  if (!ready) return;
  const live = player.timeline();
  const tagged = live.map((c) => ({ ...c, tag: c.element.tagName.toLowerCase() }));
  const keys = clipKeys(tagged);
  const sources = matchSources(tagged, source?.elements ?? []);
  clips = tagged.map((c, i) => ({ ...c, key: keys[i] as string, label: keys[i] as string, source: sources[i] }));
  timeline.setClips(
    clips.map((c) => ({
      key: c.key,
      label: c.label,
      kind: c.kind,
      trackIndex: c.trackIndex,
      start: c.start,
      end: c.end,
      openEnded: c.lengthFrom === 'open',
    })),
    player.duration,
    fps,
  );
  element('fps-label').textContent = `${Number((fps.num / fps.den).toFixed(3))} fps · ${lastFrame() + 1} frames`;
  // Keep the selection through reloads: the same key names the same clip.
  applySelection(selected);
  showTime(pendingFrame !== null ? frameTime(pendingFrame, fps) : player.currentTime);
}

function fitPlayer(info: ProjectInfo): void {
  const room = element('stage').clientWidth || info.width;
  player.setAttribute('width', String(Math.min(info.width, room)));
  player.setAttribute('height', String(Math.min(info.height, Math.max(180, Math.round(window.innerHeight * 0.5)))));
}

async function loadProject(): Promise<void> {
  const info = await previewJson<ProjectInfo>('project.json');
  variables.setDeclarations(info.variables);
  renderPanel.showVariables(variables.current);
  renderPanel.setCompositionFps(defaultFps(info.fps));
  fps = renderPanel.currentFps;
  fitPlayer(info);
  if (player.getAttribute('src') !== info.entry) player.setAttribute('src', info.entry);
}

/** Source lines, lint findings and the editor link: read again after every reload. */
async function loadFacts(): Promise<void> {
  const [studioInfo, sourceInfo, lint] = await Promise.all([
    studioJson<StudioInfo>('studio.json'),
    studioJson<SourceInfo>('source.json').catch(() => undefined),
    previewJson<{ findings: Finding[] }>('lint.json'),
  ]);
  studio = studioInfo;
  source = sourceInfo;
  findings = lint.findings;
  showLint(element('lint'), findings);
}

function onReady(): void {
  ready = true;
  status.textContent = 'ready';
  rebuild();
  if (restore) {
    const place = restore;
    restore = null;
    if (place.zoom) timeline.setZoom(place.zoom);
    if (place.clip) applySelection(place.clip);
    if (place.frame !== undefined) goToFrame(place.frame);
  }
  if (reloading) {
    reloading = false;
    document.body.dataset.reloads = String(Number(document.body.dataset.reloads) + 1);
  }
}

const togglePlay = (): void => {
  pendingFrame = null;
  if (player.paused) player.play();
  else player.pause();
};

function step(frames: number): void {
  goToFrame(currentFrame() + frames);
}

function stepSize(shift: boolean): number {
  return shift ? Math.max(1, Math.round(fps.num / fps.den)) : 1;
}

player.addEventListener('timeupdate', (e) => {
  if (ready) showTime((e as CustomEvent<{ currentTime: number }>).detail.currentTime);
});
player.addEventListener('ready', onReady);
player.addEventListener('play', () => {
  element('play').textContent = 'Pause';
  element('play').setAttribute('aria-label', 'Pause (Space)');
});
player.addEventListener('pause', () => {
  element('play').textContent = 'Play';
  element('play').setAttribute('aria-label', 'Play (Space)');
  savePlace();
});
player.addEventListener('error', (e) => {
  status.textContent = `error: ${(e as unknown as CustomEvent<{ message: string }>).detail.message}`;
  if (reloading) {
    reloading = false;
    document.body.dataset.reloads = String(Number(document.body.dataset.reloads) + 1);
  }
});

element('play').addEventListener('click', togglePlay);
element('first').addEventListener('click', () => goToFrame(0));
element('last').addEventListener('click', () => goToFrame(lastFrame()));
element('prev').addEventListener('click', (e) => step(-stepSize(e.shiftKey)));
element('next').addEventListener('click', (e) => step(stepSize(e.shiftKey)));
element('zoom-in').addEventListener('click', () => timeline.zoomBy(1));
element('zoom-out').addEventListener('click', () => timeline.zoomBy(-1));
element('zoom-fit').addEventListener('click', () => timeline.setZoom(1));
element<HTMLInputElement>('loop').addEventListener('change', (e) => (player.loop = (e.target as HTMLInputElement).checked));
element('reset').addEventListener('click', () => variables.reset());

function commitFrame(): void {
  const value = Number(frameInput.value);
  const valid = frameInput.value.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= lastFrame();
  frameInput.setAttribute('aria-invalid', String(!valid));
  if (valid) goToFrame(value);
}

function commitTimecode(): void {
  const frame = parseTimecode(timecodeInput.value, fps);
  const valid = frame !== undefined && frame <= lastFrame();
  timecodeInput.setAttribute('aria-invalid', String(!valid));
  if (valid) goToFrame(frame);
}

for (const [input, commit] of [
  [frameInput, commitFrame],
  [timecodeInput, commitTimecode],
] as const) {
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') input.blur();
  });
  input.addEventListener('blur', () => showTime(player.currentTime));
}

/** Space plays and pauses everywhere except on controls that use it (buttons, checkboxes, summaries); blocks are the exception. */
function spaceIsTheControls(target: EventTarget | null): boolean {
  if (!(target instanceof Element) || target.closest('.tl-clip')) return false;
  return target.matches('button, summary, input, a[href], select');
}

document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target)) return;
  const clip = clips.find((c) => c.key === selected);
  switch (e.key) {
    case ' ':
      if (spaceIsTheControls(e.target)) return;
      togglePlay();
      break;
    case 'ArrowRight':
      step(stepSize(e.shiftKey));
      break;
    case 'ArrowLeft':
      step(-stepSize(e.shiftKey));
      break;
    case 'Home':
      goToFrame(0);
      break;
    case 'End':
      goToFrame(lastFrame());
      break;
    case '+':
    case '=':
      timeline.zoomBy(1);
      break;
    case '-':
      timeline.zoomBy(-1);
      break;
    case '0':
      timeline.setZoom(1);
      break;
    case '[':
    case ']':
      if (!clip) return;
      goToFrame(clipFrames(clip.start, clip.end, fps)[e.key === '[' ? 'first' : 'last']);
      break;
    case 'Escape':
      select(null);
      break;
    default:
      return;
  }
  e.preventDefault();
});
// A block is a button: without this, Space would also "click" (select) it on key up.
document.addEventListener('keyup', (e) => {
  if (e.key === ' ' && e.target instanceof Element && e.target.closest('.tl-clip')) e.preventDefault();
});

const events = new EventSource(`${PREVIEW_ROUTE}events`);
events.addEventListener('reload', async () => {
  status.textContent = 'reloading…';
  reloading = true;
  try {
    await Promise.all([loadProject(), loadFacts()]);
  } finally {
    // The player keeps its time; onReady rebuilds the timeline and puts the selection back.
    player.reload();
    void renderPanel.refresh().catch(() => undefined);
  }
});

loadProject()
  .then(loadFacts)
  .then(() => {
    rebuild();
    return renderPanel.refresh();
  })
  .catch((error: unknown) => (status.textContent = String(error)));
