export interface Size {
  width: number;
  height: number;
}

/**
 * The player's box and the scale of the composition inside it. `width`/`height` attributes set
 * the box; with only one given the other follows the composition's aspect; with both, the
 * composition is fitted inside (aspect kept, centred). Without either, the native size.
 */
export function fitPlayerBox(
  native: Size,
  requested: { width?: number | undefined; height?: number | undefined },
): Size & { scale: number } {
  const { width, height } = requested;
  if (width && height) return { width, height, scale: Math.min(width / native.width, height / native.height) };
  if (width) return { width, height: (width * native.height) / native.width, scale: width / native.width };
  if (height) return { width: (height * native.width) / native.height, height, scale: height / native.height };
  return { ...native, scale: 1 };
}

/** A positive number from an attribute (`"640"`, `"640px"`), else undefined. */
export function parseLength(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
