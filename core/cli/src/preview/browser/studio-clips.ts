/**
 * The clips the studio shows: the player's top-level clips (the runtime's own timing) and, below
 * each sub-composition instance, the clips of its file (shifted by the host's start, cut at its
 * end), each tied to the file and the line where it is written, so an edit goes to that file.
 */
import type { SourceElement } from '@seekframe/composition';
import type { SeekframeRuntime, TimelineClip } from '@seekframe/runtime';
import { clipKeys, matchSources } from './clip-source.js';

/** A clip as the studio knows it: the runtime's timing plus its key, tag and where it is written. */
export interface StudioClip extends TimelineClip {
  key: string;
  label: string;
  tag: string;
  /** The project file the element is written in (POSIX, relative to the project). */
  file: string;
  source: SourceElement | undefined;
  /** The sub-composition instance it is in (its key), for clips of a child file. */
  group?: string;
  /** Seconds its file's times are shifted by (the host's start; 0 at top level). */
  offset: number;
}

type RuntimeWindow = Window & { __seekframe?: SeekframeRuntime };

/** The project path of a URL of this preview (`/dir/card.html` -> `dir/card.html`). */
export function projectPath(url: string): string {
  return decodeURIComponent(new URL(url, location.href).pathname.replace(/^\/+/, ''));
}

/**
 * Builds the studio's clips. `sources` gives each file's written elements (undefined while not
 * read); `wanted` collects files whose sources are not read yet.
 */
export function studioClips(
  top: readonly TimelineClip[],
  file: string,
  sources: (file: string) => SourceElement[] | undefined,
  wanted: Set<string>,
  offset = 0,
  group?: { key: string; end: number },
): StudioClip[] {
  const tagged = top.map((c) => ({ ...c, tag: c.element.tagName.toLowerCase() }));
  const keys = clipKeys(tagged);
  const written = sources(file);
  if (!written) wanted.add(file);
  const matched = matchSources(tagged, written ?? []);
  const out: StudioClip[] = [];
  tagged.forEach((c, i) => {
    const own = keys[i] as string;
    const key = group ? `${group.key}/${own}` : own;
    const end = Math.min(c.end + offset, group?.end ?? Infinity);
    const clip: StudioClip = {
      ...c,
      start: c.start + offset,
      end,
      key,
      label: group ? `${group.key} › ${own}` : own,
      file,
      source: matched[i],
      offset,
      ...(group ? { group: group.key } : {}),
    };
    out.push(clip);
    if (c.kind !== 'composition') return;
    const frame = c.element.querySelector('iframe');
    const child = (frame?.contentWindow as RuntimeWindow | null | undefined)?.__seekframe;
    const childClips = child?.timeline?.() ?? [];
    if (!frame || childClips.length === 0) return;
    out.push(...studioClips(childClips, projectPath(frame.src), sources, wanted, clip.start, { key, end: clip.end }));
  });
  return out;
}

/** True when `el` is `ancestor` or inside it, through the frames of sub-compositions. */
export function containsAcross(ancestor: Element, el: Element | null): boolean {
  for (let node = el; node; node = node.ownerDocument.defaultView?.frameElement ?? null) if (ancestor.contains(node)) return true;
  return false;
}

/** The innermost clip whose element holds `el` (the clips are in document order, children after their hosts). */
export function clipHolding(clips: readonly StudioClip[], el: Element): StudioClip | undefined {
  let found: StudioClip | undefined;
  for (const clip of clips) if (containsAcross(clip.element, el) && (!found || containsAcross(found.element, clip.element))) found = clip;
  return found;
}
