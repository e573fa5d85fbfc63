import { frameTime, type Fps, type SourceElement } from '@seekframe/composition';
import type { TimelineClip } from '@seekframe/runtime';
import { fillEditorTemplate } from '../studio/editor-template.js';
import type { StudioInfo } from '../studio/studio-types.js';
import { h } from './dom.js';
import { findingItem, type Finding } from './lint-panel.js';
import { clipFrames } from './timeline-layout.js';

/** A clip as the studio knows it: the runtime's timing plus its key, tag and where it is written. */
export interface StudioClip extends TimelineClip {
  key: string;
  label: string;
  tag: string;
  source: SourceElement | undefined;
}

export interface InspectorContext {
  fps: Fps;
  studio: StudioInfo | undefined;
  /** The entry file relative to the project (where the top-level clips are written). */
  file: string;
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
      h('p', { className: 'empty' }, 'Select a block in the timeline (click it, or Tab to it and press Enter) to inspect its element.'),
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
  const findings = clip.source ? ctx.findings.filter((f) => f.file === ctx.file && within(f, clip.source as SourceElement)) : [];
  parts.push(
    h('h4', {}, 'Lint'),
    findings.length > 0
      ? h('ul', { className: 'findings' }, ...findings.map(findingItem))
      : h('p', { className: 'muted' }, 'No findings for this element.'),
  );
  if (!clip.element.isConnected || !(clip.element.getBoundingClientRect().width > 0))
    parts.push(h('p', { className: 'muted' }, 'Nothing to outline: the element has no box (audio, or not displayed).'));
  root.replaceChildren(...parts);
}

function within(f: Finding, source: SourceElement): boolean {
  const afterStart = f.line > source.location.line || (f.line === source.location.line && f.column >= source.location.column);
  const beforeEnd = f.line < source.startTagEnd.line || (f.line === source.startTagEnd.line && f.column <= source.startTagEnd.column);
  return afterStart && beforeEnd;
}

function sourceBlock(clip: StudioClip, ctx: InspectorContext): HTMLElement {
  if (!clip.source) return h('p', { className: 'muted source' }, `Not written in ${ctx.file}: a script made this element.`);
  const { line, column } = clip.source.location;
  const where = `${ctx.file}:${line}:${column}`;
  const studio = ctx.studio;
  const block = h('div', { className: 'source', dataset: { file: ctx.file, line: String(line) } });
  if (!studio) {
    block.append(h('code', {}, where));
    return block;
  }
  const at = { file: joinPath(studio.root, ctx.file), line, column };
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
