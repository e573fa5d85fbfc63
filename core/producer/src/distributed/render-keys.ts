/**
 * Where one distributed render keeps its pieces in its store (an S3 bucket, a shared folder).
 * Everything of a render sits under `renders/<id>/`: the project, the plan, the once-mixed audio,
 * one segment per chunk and the output; Lambda adds its request, job, progress, error and status
 * records beside them. Keys are deterministic, so a chunk rendered twice lands on the same key.
 */
export const RENDERS_PREFIX = 'renders/';

const ID_PATTERN = /^[a-z0-9][a-z0-9-]{7,63}$/;

export function isRenderId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** A fresh render id: sortable by time, safe as a storage key part, a Step Functions execution name and a BullMQ job id. */
export function newRenderId(now = Date.now(), random: () => number = Math.random): string {
  const time = now.toString(36).padStart(9, '0');
  let tail = '';
  for (let i = 0; i < 10; i++) tail += Math.floor(random() * 36).toString(36);
  return `${time}-${tail}`;
}

/** A chunk's number in its keys: five digits, so keys sort in frame order. */
export function chunkName(index: number): string {
  return String(index).padStart(5, '0');
}

export function renderKeys(id: string) {
  const root = `${RENDERS_PREFIX}${id}/`;
  return {
    root,
    request: `${root}request.json`,
    /** The render API's job record (Lambda's object job store). */
    job: `${root}job.json`,
    project: `${root}project.tar.gz`,
    plan: `${root}plan.json`,
    audio: `${root}audio.m4a`,
    chunk: (index: number) => `${root}chunks/${chunkName(index)}.mp4`,
    chunksPrefix: `${root}chunks/`,
    progressPrefix: `${root}progress/`,
    planProgress: `${root}progress/plan.json`,
    chunkProgress: (index: number) => `${root}progress/${chunkName(index)}.json`,
    assembleProgress: `${root}progress/assemble.json`,
    errorsPrefix: `${root}errors/`,
    error: (step: string, attempt: number) => `${root}errors/${step}-${attempt}.json`,
    status: `${root}status.json`,
    output: `${root}out.mp4`,
  };
}

export type RenderKeys = ReturnType<typeof renderKeys>;
