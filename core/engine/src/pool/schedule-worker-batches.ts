/** Half-open frame index range [start, end). */
export interface WorkerBatch {
  start: number;
  end: number;
}

/**
 * Cuts `total` frames into contiguous batches that workers take in order. Small batches keep
 * workers close together (frames must be delivered in order, so a worker far ahead only fills
 * the buffer); large batches cost fewer hand-overs. Default: about four batches per worker, at
 * most 30 frames, shrinking towards the end (guided self-scheduling: each batch is at most the
 * remaining frames / (2 x workers)), so the workers finish together. With equal batches the last
 * one ran on one browser while the others sat idle: on 2 cores up to a second at ~half speed.
 */
export function scheduleWorkerBatches(total: number, workers: number, batchSize?: number): WorkerBatch[] {
  const fixed = batchSize === undefined ? undefined : Math.max(1, Math.floor(batchSize));
  const largest = Math.min(30, Math.max(1, Math.ceil(total / (workers * 4))));
  const batches: WorkerBatch[] = [];
  for (let start = 0; start < total; ) {
    const size = fixed ?? Math.max(1, Math.min(largest, Math.ceil((total - start) / (workers * 2))));
    const end = Math.min(total, start + size);
    batches.push({ start, end });
    start = end;
  }
  return batches;
}
