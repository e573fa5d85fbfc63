/**
 * Where one render keeps its pieces in the bucket. Everything of a render sits under
 * `renders/<id>/`; `chunks/` and `progress/` expire by lifecycle rule (sst.config.ts), the rest
 * stays until the bucket's output rule removes it.
 */
export const RENDERS_PREFIX = 'renders/';
/** Parts of a render the lifecycle rules expire early (scaffolding, not results). */
export const SHORT_LIVED_SUFFIXES = ['chunks/', 'progress/'] as const;
/**
 * S3 lifecycle filters match a key prefix or a tag, and chunks/progress sit below each render
 * id, so the handlers tag those objects and one rule (sst.config.ts) expires the tag after 3 days.
 */
export const SHORT_LIVED_TAG = { key: 'seekframe-lifetime', value: 'short' } as const;
export const SHORT_LIVED_DAYS = 3;

/** Whether a key is a render's scaffolding (`renders/<id>/chunks/...`, `.../progress/...`), tagged for the short rule. */
export function isShortLivedKey(key: string): boolean {
  return key.startsWith(RENDERS_PREFIX) && SHORT_LIVED_SUFFIXES.some((suffix) => key.split('/').slice(2).join('/').startsWith(suffix));
}
/** Everything else of a render (request, plan, errors, status, output) goes after this. */
export const RENDER_RETENTION_DAYS = 30;

const ID_PATTERN = /^[a-z0-9][a-z0-9-]{7,63}$/;

export function isRenderId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** A fresh render id: sortable by time, safe as an S3 key part and a Step Functions execution name. */
export function newRenderId(now = Date.now(), random: () => number = Math.random): string {
  const time = now.toString(36).padStart(9, '0');
  let tail = '';
  for (let i = 0; i < 10; i++) tail += Math.floor(random() * 36).toString(36);
  return `${time}-${tail}`;
}

function pad(index: number): string {
  return String(index).padStart(5, '0');
}

export function renderKeys(id: string) {
  const root = `${RENDERS_PREFIX}${id}/`;
  return {
    root,
    request: `${root}request.json`,
    /** The render API's job record (api/object-job-store.ts). */
    job: `${root}job.json`,
    project: `${root}project.tar.gz`,
    plan: `${root}plan.json`,
    audio: `${root}audio.m4a`,
    chunk: (index: number) => `${root}chunks/${pad(index)}.mp4`,
    chunksPrefix: `${root}chunks/`,
    progressPrefix: `${root}progress/`,
    planProgress: `${root}progress/plan.json`,
    chunkProgress: (index: number) => `${root}progress/${pad(index)}.json`,
    assembleProgress: `${root}progress/assemble.json`,
    errorsPrefix: `${root}errors/`,
    error: (step: string, attempt: number) => `${root}errors/${step}-${attempt}.json`,
    status: `${root}status.json`,
    output: `${root}out.mp4`,
  };
}

export type RenderKeys = ReturnType<typeof renderKeys>;
export { pad as chunkName };
