/**
 * The studio's place in the URL's fragment, so a browser reload or a shared link opens at the
 * same spot with the same variables: `#frame=12&clip=intro&zoom=2&in=10&out=29&vars=%7B...%7D`.
 */
export interface StudioPlace {
  frame?: number;
  clip?: string;
  zoom?: number;
  /** The work area's first and last frame. */
  range?: { in: number; out: number };
  /** The values set in the Variables panel (over the declared defaults). */
  vars?: Record<string, unknown>;
}

const frameNumber = (text: string | null): number | undefined => {
  const n = Number(text);
  return text !== null && text !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
};

export function readPlace(hash: string): StudioPlace {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const place: StudioPlace = {};
  const frame = frameNumber(params.get('frame'));
  if (frame !== undefined) place.frame = frame;
  const clip = params.get('clip');
  if (clip) place.clip = clip;
  const zoom = Number(params.get('zoom'));
  if (params.has('zoom') && zoom >= 1) place.zoom = zoom;
  const from = frameNumber(params.get('in'));
  const to = frameNumber(params.get('out'));
  if (from !== undefined && to !== undefined && to >= from) place.range = { in: from, out: to };
  const vars = params.get('vars');
  if (vars) {
    try {
      const value: unknown = JSON.parse(vars);
      if (value && typeof value === 'object' && !Array.isArray(value)) place.vars = value as Record<string, unknown>;
    } catch {
      // A mangled link: the defaults.
    }
  }
  return place;
}

export function writePlace(place: StudioPlace): string {
  const params = new URLSearchParams();
  if (place.frame !== undefined) params.set('frame', String(place.frame));
  if (place.clip) params.set('clip', place.clip);
  if (place.zoom !== undefined && place.zoom !== 1) params.set('zoom', String(place.zoom));
  if (place.range) {
    params.set('in', String(place.range.in));
    params.set('out', String(place.range.out));
  }
  if (place.vars && Object.keys(place.vars).length > 0) params.set('vars', JSON.stringify(place.vars));
  return `#${params.toString()}`;
}
