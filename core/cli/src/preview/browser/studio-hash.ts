/**
 * The studio's place (frame, selected block, zoom) in the URL's fragment, so a browser reload or
 * a shared link opens at the same spot: `#frame=12&clip=intro&zoom=2`.
 */
export interface StudioPlace {
  frame?: number;
  clip?: string;
  zoom?: number;
}

export function readPlace(hash: string): StudioPlace {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const place: StudioPlace = {};
  const frame = Number(params.get('frame'));
  if (params.has('frame') && Number.isInteger(frame) && frame >= 0) place.frame = frame;
  const clip = params.get('clip');
  if (clip) place.clip = clip;
  const zoom = Number(params.get('zoom'));
  if (params.has('zoom') && zoom >= 1) place.zoom = zoom;
  return place;
}

export function writePlace(place: StudioPlace): string {
  const params = new URLSearchParams();
  if (place.frame !== undefined) params.set('frame', String(place.frame));
  if (place.clip) params.set('clip', place.clip);
  if (place.zoom !== undefined && place.zoom !== 1) params.set('zoom', String(place.zoom));
  return `#${params.toString()}`;
}
