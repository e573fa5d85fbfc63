import { RENDERS_PREFIX } from '@seekframe/producer/distributed';

/**
 * A render's scaffolding in a bucket (the core's layout, renderKeys): `chunks/` and `progress/`
 * matter only until the render is assembled. S3 lifecycle filters match a key prefix or a tag,
 * and these sit below each render id, so the store tags them and one rule (sst.config.ts for
 * Lambda; the bucket's own rule for a fleet) expires the tag after 3 days.
 */
export const SHORT_LIVED_SUFFIXES = ['chunks/', 'progress/'] as const;
export const SHORT_LIVED_TAG = { key: 'seekframe-lifetime', value: 'short' } as const;
export const SHORT_LIVED_DAYS = 3;

/** Whether a key is a render's scaffolding (`renders/<id>/chunks/...`, `.../progress/...`), tagged for the short rule. */
export function isShortLivedKey(key: string): boolean {
  return key.startsWith(RENDERS_PREFIX) && SHORT_LIVED_SUFFIXES.some((suffix) => key.split('/').slice(2).join('/').startsWith(suffix));
}
