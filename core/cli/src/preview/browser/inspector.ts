import { frameTime, type Fps, type SourceElement } from '@seekframe/composition';
import type { TimelineClip } from '@seekframe/runtime';
import type { LaneAnimation } from './animation-lanes.js';
import { fillEditorTemplate } from '../studio/editor-template.js';
import type { StudioInfo } from '../studio/studio-types.js';
import { h } from './dom.js';
import { findingItem, type Finding } from './lint-panel.js';
import type { StudioClip } from './studio-clips.js';
import { clipFrames } from './timeline-layout.js';

export type { StudioClip };

export interface InspectorContext {
  fps: Fps;
  studio: StudioInfo | undefined;
  findings: readonly Finding[];
}

const LENGTH_FROM: Record<TimelineClip['lengthFrom'], string> = {
  attribute: 'data-duration',
  media: 'measured from the media file',
  composition: "the sub-composition's own length",
  open: 'none: runs to the end of the composition',
};

/** Attributes shown in the timing list (the rest are listed under Attributes). */
const TIMING_ATTRIBUTES = ['data-start', 'data-duration', 'data-track-index', 'data-media-start'];

/**
 * The inspector for the selected clip: resolved timing, the element's attributes as they are in
 * the page now, where it is written (with a link to the editor), its variables per instance and
 * its lint findings.
 */
export function showInspector(root: HTMLElement, clip: StudioClip | undefined, ctx: InspectorContext): void {
  if (!clip) {
    root.replaceChildren(
      h(
        'p',
        { className: 'empty' },
        'Select a block in the timeline (click it, or Tab to it and press Enter) or click the picture to inspect an element.',
      ),
    );
    return;
  }
  const { fps } = ctx;
  const { first, last } = clipFrames(clip.start, clip.end, fps);
  const el = clip.element;
  const timing = h('dl', { className: 'timing' });
  const row = (list: HTMLElement, name: string, value: string, data: Record<string, string> = {}): void => {
    list.append(h('dt', {}, name), h('dd', { dataset: data }, value));
  };
  row(timing, 'Start', `${clip.start.toFixed(3)} s (frame ${first})`, { resolved: 'start' });
  row(timing, 'End', `${clip.end.toFixed(3)} s (last frame ${last}, ${frameTime(last, fps).toFixed(3)} s)`, { resolved: 'end' });
  row(timing, 'Length', `${(clip.end - clip.start).toFixed(3)} s`, { resolved: 'length' });
  row(timing, 'Length from', LENGTH_FROM[clip.lengthFrom], { resolved: 'length-from' });
  row(timing, 'Track', clip.trackIndex === undefined ? 'none' : String(clip.trackIndex), { resolved: 'track' });
  for (const name of TIMING_ATTRIBUTES) {
    const value = el.getAttribute(name);
    if (value !== null) row(timing, name, value, { attr: name });
  }

  const attributes = h('dl', { className: 'attributes' });
  for (const { name, value } of el.attributes) {
    if (TIMING_ATTRIBUTES.includes(name) || name.startsWith('data-seekframe') || name === 'style') continue;
    row(attributes, name, value, { attr: name });
  }

  const parts: Node[] = [
    h('h3', {}, clip.label, ' ', h('span', { className: 'muted' }, `${clip.kind} · <${clip.tag}>`)),
    timing,
    h('h4', {}, 'Source'),
    sourceBlock(clip, ctx),
  ];
  if (attributes.childElementCount > 0) parts.push(h('h4', {}, 'Attributes'), attributes);
  if (clip.variables) {
    const vars = h('dl', { className: 'variables' });
    const entries = Object.entries(clip.variables);
    for (const [name, value] of entries) row(vars, name, JSON.stringify(value), { variable: name });
    parts.push(
      h('h4', {}, 'Variables of this instance'),
      entries.length > 0 ? vars : h('p', { className: 'muted' }, 'The sub-composition declares no variables.'),
    );
  }
  if (clip.kind === 'composition') {
    const src = clip.element.getAttribute('data-composition-src');
    const frame = clip.element.querySelector('iframe');
    const file = frame ? new URL(frame.src).pathname.replace(/^\/+/, '') : src;
    if (file)
      parts.push(
        h(
          'p',
          {},
          h(
            'a',
            { href: `?composition=${encodeURIComponent(decodeURIComponent(file))}`, id: 'open-composition' },
            `Open ${decodeURIComponent(file)} on its own`,
          ),
        ),
      );
  }
  const findings = clip.source ? ctx.findings.filter((f) => f.file === clip.file && within(f, clip.source as SourceElement)) : [];
  parts.push(
    h('h4', {}, 'Lint'),
    findings.length > 0
      ? h('ul', { className: 'findings' }, ...findings.map(findingItem))
      : h('p', { className: 'muted' }, 'No findings for this element.'),
  );
  parts.push(
    h(
      'p',
      { className: 'muted', id: 'outline-note', hidden: true },
      'Nothing to outline: the element has no box at this time (audio, or not displayed).',
    ),
  );
  root.replaceChildren(...parts);
}

/** Says "nothing to outline" exactly when the player draws no outline (called on every frame shown). */
export function showOutlineNote(root: HTMLElement, outlined: boolean): void {
  const note = root.querySelector<HTMLElement>('#outline-note');
  if (note) note.hidden = outlined;
}

/** The inspector for an animation bar: what it animates, how (properties, ease) and when. */
export function showAnimation(root: HTMLElement, a: LaneAnimation, fps: Fps): void {
  const list = h('dl', { className: 'timing' });
  const row = (name: string, value: string, key: string): void => {
    list.append(h('dt', {}, name), h('dd', { dataset: { animation: key } }, value));
  };
  row('Kind', a.kind, 'kind');
  row('Source', a.name, 'name');
  if (a.timeline) row('Nested timeline', a.timeline, 'timeline');
  row('Target', a.target.label, 'target');
  row('Properties', a.properties || '(none listed)', 'properties');
  row('Ease', a.ease ?? (a.kind === 'gsap' ? 'GSAP default (power1.out)' : 'from its keyframes / timing'), 'ease');
  row('Start', `${a.start.toFixed(3)} s (frame ${Math.ceil((a.start * fps.num) / fps.den - 1e-6)})`, 'start');
  row('End', `${a.end.toFixed(3)} s`, 'end');
  row('Duration', `${a.duration.toFixed(3)} s${a.end - a.start > a.duration + 1e-6 ? ' (repeats)' : ''}`, 'duration');
  if (a.kind === 'gsap')
    row(
      'Seeked',
      a.registered
        ? 'yes: registered in window.__timelines'
        : a.paused
          ? 'never: paused and not registered'
          : "by GSAP's ticker only (not registered)",
      'registered',
    );
  root.replaceChildren(h('h3', {}, a.properties || a.name, ' ', h('span', { className: 'muted' }, `${a.kind} · ${a.target.label}`)), list);
}

function within(f: Finding, source: SourceElement): boolean {
  const afterStart = f.line > source.location.line || (f.line === source.location.line && f.column >= source.location.column);
  const beforeEnd = f.line < source.startTagEnd.line || (f.line === source.startTagEnd.line && f.column <= source.startTagEnd.column);
  return afterStart && beforeEnd;
}

function sourceBlock(clip: StudioClip, ctx: InspectorContext): HTMLElement {
  if (!clip.source) return h('p', { className: 'muted source' }, `Not written in ${clip.file}: a script made this element.`);
  const { line, column } = clip.source.location;
  const where = `${clip.file}:${line}:${column}`;
  const studio = ctx.studio;
  const block = h('div', { className: 'source', dataset: { file: clip.file, line: String(line) } });
  if (!studio) {
    block.append(h('code', {}, where));
    return block;
  }
  const at = { file: joinPath(studio.root, clip.file), line, column };
  const editor = studio.editor;
  if (editor?.url) {
    block.append(
      h('a', { href: fillEditorTemplate(editor.url, at, 'url'), id: 'open-source', title: `Open in ${editor.name}` }, where),
      ` · open in ${editor.name}`,
    );
  } else block.append(h('code', {}, where));
  if (editor?.command) {
    const command = fillEditorTemplate(editor.command, at, 'command');
    const copy = h('button', { type: 'button', title: 'Copy the command' }, 'Copy');
    copy.addEventListener(
      'click',
      () =>
        void navigator.clipboard
          ?.writeText(command)
          .then(() => (copy.textContent = 'Copied'))
          .catch(() => undefined),
    );
    block.append(h('div', {}, h('code', {}, command), ' ', copy));
  }
  if (!editor)
    block.append(
      h('p', { className: 'muted' }, 'Set $EDITOR (e.g. code) or SEEKFRAME_EDITOR_URL to get a link that opens this line in your editor.'),
    );
  if (studio.problem) block.append(h('p', { className: 'muted' }, studio.problem));
  return block;
}

function joinPath(root: string, file: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return root.replace(/[\\/]+$/, '') + sep + file.split('/').join(sep);
}
