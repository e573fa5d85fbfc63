/** Half-open frame index range [start, end). */
export interface FrameChunk {
  start: number;
  end: number;
}

/**
 * Cuts `total` frames into contiguous chunks that workers take in order. Small chunks keep
 * workers close together (frames must be delivered in order, so a worker far ahead only fills
 * the buffer); large chunks keep seeks local. Default: about four chunks per worker, 1..30 frames.
 */
export function planFrameChunks(total: number, workers: number, chunkSize?: number): FrameChunk[] {
  const size = Math.max(1, Math.floor(chunkSize ?? Math.min(30, Math.max(1, Math.ceil(total / (workers * 4))))));
  const chunks: FrameChunk[] = [];
  for (let start = 0; start < total; start += size) chunks.push({ start, end: Math.min(total, start + size) });
  return chunks;
}
