/**
 * The bucket's lifecycle around the core's layout (renderKeys in @seekframe/producer/distributed):
 * `chunks/` and `progress/` are tagged short-lived by the S3 store and expire by lifecycle rule
 * (sst.config.ts); the rest stays until the bucket's output rule removes it.
 */
export { RENDERS_PREFIX } from '@seekframe/producer/distributed';
export { SHORT_LIVED_SUFFIXES, SHORT_LIVED_TAG, SHORT_LIVED_DAYS, isShortLivedKey } from '@seekframe/s3-storage';
/** Everything else of a render (request, plan, errors, status, output) goes after this. */
export const RENDER_RETENTION_DAYS = 30;
