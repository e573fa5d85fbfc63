/**
 * The preview studio's browser code (served as `app.js`, bundled by scripts/bundle-preview-app.mjs
 * into dist/preview/preview-app.js): it wires the parts, each in its own module: the transport
 * (frame-exact navigation, speed, work area), the timeline with animation lanes and drag edits,
 * the picture (click to select, layout), the inspector, render panel, variables and lint, and
 * live reload over SSE that keeps the frame, selection, zoom and work area.
 * It talks only to `<seekframe-player>` and the preview and studio routes.
 * Type-checked against the DOM (src/preview/browser/tsconfig.json); no `node:` imports.
 */
import { defaultFps, frameAt, frameTime } from '@seekframe/composition';
import type { SeekframePlayer } from '@seekframe/player';
import { PREVIEW_ROUTE } from '../preview-route.js';
import type { EditHistory } from '../studio/studio-types.js';
import { inspectAnimations, type AnimationView } from './animation-lanes.js';
import { studioJson } from './api.js';
import { element } from './dom.js';
import { showAnimation, showInspector, showOutlineNote } from './inspector.js';
import { bindStudioKeys } from './studio-keys.js';
import { showLint } from './lint-panel.js';
import { bindPicturePick } from './picture-pick.js';
import { RenderPanel } from './render-panel.js';
import { studioClips, type StudioClip } from './studio-clips.js';
import { StudioFacts } from './studio-facts.js';
import { readPlace, writePlace, type StudioPlace } from './studio-hash.js';
import { TimelineEdits } from './timeline-edits.js';
import { clipFrames } from './timeline-layout.js';
import { TimelineView } from './timeline-view.js';
import { TrackSwitches } from './track-switches.js';
import { Transport } from './transport.js';
import { bindTransportControls, showTransportTime } from './transport-controls.js';
import { bindSaveDefaults } from './save-defaults.js';
import { VariablesPanel } from './variables-panel.js';
import { ViewerLayout } from './viewer-layout.js';
import { Waveforms } from './waveforms.js';

const player = element<SeekframePlayer>('player');
const status = element('status');
const facts = new StudioFacts();
const transport = new Transport(player, (t) => showTime(t));
const layout = new ViewerLayout(player);

let clips: StudioClip[] = [];
let animations: AnimationView = { lanes: [], labels: [], animations: [] };
let selected: string | null = null;
let reloading = false;
/** Where to go once the first composition is ready (from the URL fragment). */
let restore: StudioPlace | null = readPlace(location.hash);

const variables = new VariablesPanel(element<HTMLFormElement>('variables'), (values) => {
  player.variables = values;
  renderPanel.showVariables(values);
  savePlace();
});
const renderPanel = new RenderPanel(element('render-panel'), {
  variables: () => variables.current,
  range: () => transport.range,
  file: () => facts.composition,
  fpsChanged: (rate) => {
    transport.fps = rate;
    void rebuild();
  },
});
const findClip = (key: string): StudioClip | undefined => clips.find((c) => c.key === key);
const switches = new TrackSwitches(
  () => clips,
  () => timeline.redraw(),
);
const waveforms = new Waveforms(findClip);
const say = (message: string, error = false): void => {
  element('edit-message').textContent = message;
  element('edit-message').classList.toggle('error', error);
};
const edits = new TimelineEdits({
  clip: findClip,
  fps: () => transport.fps,
  source: (file) => facts.source(file),
  written: (info) => facts.written(info),
  say,
  reload: () => void reloadAll(),
  redraw: () => timeline.redraw(),
});
const timeline = new TimelineView({
  seek: (t) => transport.goToFrame(frameAt(t, transport.fps)),
  select: (key, t) => select(key, t),
  selectAnimation: (index, t) => selectAnimationBar(index, t),
  zoomChanged: () => savePlace(),
  rangeDragged: (from, to) => setRange({ in: from, out: to }),
  rowLabel: (row) => switches.label(row),
  decorate: (block, clip, pps) => waveforms.decorate(block, clip.key, pps),
  playheadTime: () => transport.currentTime(),
  editable: (key) => edits.editable(key),
  commit: (edit) => void edits.commit(edit),
  refuse: (message) => say(message, true),
});

function showTime(t: number): void {
  const { frame, last, timecode } = showTransportTime(transport, player, t);
  timeline.setTime(t, frame, last, `frame ${frame}, ${timecode}`);
  showOutlineNote(element('inspector'), player.outlineShown);
  savePlace();
}

function savePlace(): void {
  // Not on every frame of playback (browsers throttle history updates); the pause saves it.
  if (!transport.ready || restore || !player.paused) return;
  const place: StudioPlace = { frame: transport.currentFrame(), zoom: timeline.zoom, vars: variables.current };
  if (selected) place.clip = selected;
  if (transport.range) place.range = transport.range;
  window.history.replaceState(null, '', `${location.search}${writePlace(place)}`);
}

function setRange(range: { in: number; out: number } | null): void {
  transport.setRange(range);
  const r = transport.range;
  timeline.setRange(r);
  renderPanel.showRange(r);
  const seconds = r ? frameTime(r.out + 1, transport.fps) - frameTime(r.in, transport.fps) : 0;
  element('range-label').textContent = r ? `work area ${r.in}–${r.out} (${seconds.toFixed(2)} s)` : '';
  savePlace();
}

/** Shows `key` as selected (block, outline, inspector) without moving the playhead. */
function applySelection(key: string | null): StudioClip | undefined {
  const clip = key === null ? undefined : findClip(key);
  selected = clip ? clip.key : null;
  timeline.setSelected(selected);
  player.highlight(clip?.element ?? null);
  showInspector(element('inspector'), clip, { fps: transport.fps, studio: facts.studio, findings: facts.findings });
  showOutlineNote(element('inspector'), player.outlineShown);
  return clip;
}

/** A block was chosen: select it and show it (at the pointer's time, else its first frame when the playhead is outside it). */
function select(key: string | null, at?: number): void {
  const clip = applySelection(key);
  if (clip && at !== undefined) transport.goToFrame(frameAt(at, transport.fps));
  else if (clip) {
    const { first, last } = clipFrames(clip.start, clip.end, transport.fps);
    const frame = transport.currentFrame();
    if (frame < first || frame > last) transport.goToFrame(first);
  }
  savePlace();
}

function selectAnimationBar(index: number, at: number): void {
  const animation = animations.animations[index];
  if (!animation) return;
  applySelection(null);
  timeline.setSelected(null, index);
  showAnimation(element('inspector'), animation, transport.fps);
  transport.goToFrame(frameAt(at, transport.fps));
}

/** Reads the clips and animations from the player (the runtime's own timing) and redraws what depends on them. */
async function rebuild(): Promise<void> {
  if (!transport.ready) return;
  const wanted = new Set<string>();
  clips = studioClips(player.timeline(), facts.file, (file) => facts.source(file)?.elements, wanted);
  if (wanted.size > 0) {
    await facts.readSources(wanted);
    clips = studioClips(player.timeline(), facts.file, (file) => facts.source(file)?.elements, new Set());
  }
  switches.apply();
  timeline.setClips(
    clips.map((c) => ({ ...c, openEnded: c.lengthFrom === 'open' })),
    player.duration,
    transport.fps,
  );
  element('fps-label').textContent =
    `${Number((transport.fps.num / transport.fps.den).toFixed(3))} fps · ${transport.lastFrame() + 1} frames`;
  // Keep the selection through reloads: the same key names the same clip.
  applySelection(selected);
  showTime(transport.currentTime());
  animations = await inspectAnimations(player.contentWindow, clips);
  timeline.setAnimations(animations);
}

async function loadProject(): Promise<void> {
  const info = await facts.project();
  variables.setDeclarations(info.variables);
  renderPanel.showVariables(variables.current);
  renderPanel.setCompositionFps(defaultFps(info.fps));
  transport.fps = renderPanel.currentFps;
  layout.setNativeSize(info.width, info.height);
  if (player.getAttribute('src') !== info.entry) player.setAttribute('src', info.entry);
}

async function loadFacts(): Promise<void> {
  await facts.load();
  showLint(element('lint'), facts.findings);
  edits.showHistory(await studioJson<EditHistory>('edits'));
  facts.showCrumbs(element('crumbs'));
}

async function onReady(): Promise<void> {
  transport.ready = true;
  status.textContent = 'ready';
  try {
    await rebuild();
    if (restore) {
      const place = restore;
      restore = null;
      if (place.zoom) timeline.setZoom(place.zoom);
      if (place.clip) applySelection(place.clip);
      if (place.range) setRange(place.range);
      if (place.frame !== undefined) transport.goToFrame(place.frame);
    } else setRange(transport.range);
  } catch (error) {
    status.textContent = `studio error: ${String(error)}`;
  } finally {
    reloadDone();
  }
}

/** Counts finished reloads on the page (`body[data-reloads]`, which tools and tests wait on). */
function reloadDone(): void {
  if (!reloading) return;
  reloading = false;
  document.body.dataset.reloads = String(Number(document.body.dataset.reloads) + 1);
}

/** Everything read again and the composition reloaded at the same time (a reload event, or a refused write). */
async function reloadAll(): Promise<void> {
  status.textContent = 'reloading…';
  reloading = true;
  try {
    await Promise.all([loadProject(), loadFacts()]);
  } finally {
    // The player keeps its time; onReady rebuilds the timeline and puts the selection back.
    player.reload();
    void renderPanel.refresh().catch(() => undefined);
  }
}

player.addEventListener('timeupdate', (e) => {
  if (transport.ready) showTime((e as CustomEvent<{ currentTime: number }>).detail.currentTime);
});
player.addEventListener('ready', () => void onReady());
player.addEventListener('pause', () => savePlace());
player.addEventListener('error', (e) => {
  status.textContent = `error: ${(e as unknown as CustomEvent<{ message: string }>).detail.message}`;
  reloadDone();
});

bindTransportControls(transport, player, timeline);
bindPicturePick(
  player,
  () => clips,
  () => selected,
  (key) => select(key),
);
bindStudioKeys({
  transport,
  timeline,
  layout,
  selectedClip: () => (selected ? findClip(selected) : undefined),
  clearSelection: () => select(null),
  setRange,
  undo: () => void edits.undo(),
  redo: () => void edits.redo(),
  nudge: (frames) => {
    const clip = selected ? findClip(selected) : undefined;
    if (!clip) return say('Select a block first, then , and . move it by a frame.', true);
    const why = edits.editable(clip.key);
    if (why) return say(why, true);
    const { first, last } = clipFrames(clip.start, clip.end, transport.fps);
    const startFrame = Math.max(0, first + frames);
    if (startFrame !== first)
      void edits.commit({ key: clip.key, mode: 'move', startFrame, endFrame: startFrame + last + 1 - first, snappedTo: undefined });
  },
});
element('reset').addEventListener('click', () => variables.reset());
bindSaveDefaults(facts, variables, (h) => edits.showHistory(h));

const events = new EventSource(`${PREVIEW_ROUTE}events`);
events.addEventListener('reload', () => void reloadAll());

if (restore?.vars) variables.setValues(restore.vars);
loadProject()
  .then(loadFacts)
  .then(() => {
    if (restore?.vars && Object.keys(restore.vars).length > 0) player.variables = variables.current;
    return renderPanel.refresh();
  })
  .catch((error: unknown) => (status.textContent = String(error)));
