/**
 * Ties a clip of the live composition to where it is written: by id, else by its place among
 * the elements of the same tag without an id (document order is the same in the source and in
 * the page unless a script added clips, which then have no source line). The same key survives a
 * reload, so the selection does too.
 */
export interface KeyedClip {
  id: string | undefined;
  tag: string;
}

export interface SourceLike {
  tag: string;
  id?: string;
}

/** Stable keys: the id, else `<tag>#<n>` (nth anonymous clip of that tag, from 1). */
export function clipKeys(clips: readonly KeyedClip[]): string[] {
  const seen = new Map<string, number>();
  return clips.map((clip) => {
    if (clip.id) return clip.id;
    const n = (seen.get(clip.tag) ?? 0) + 1;
    seen.set(clip.tag, n);
    return `<${clip.tag}>#${n}`;
  });
}

/** The source element for each clip (undefined: not found in the file, e.g. made by a script). */
export function matchSources<S extends SourceLike>(clips: readonly KeyedClip[], sources: readonly S[]): Array<S | undefined> {
  const byId = new Map<string, S>();
  for (const source of sources) if (source.id && !byId.has(source.id)) byId.set(source.id, source);
  const anonymous = (tag: string): S[] => sources.filter((s) => !s.id && s.tag === tag);
  const keys = clipKeys(clips);
  return clips.map((clip, i) => {
    if (clip.id) return byId.get(clip.id);
    const n = Number((keys[i] as string).split('#').pop());
    return anonymous(clip.tag)[n - 1];
  });
}
