import type { ImageVersions } from '@seekframe/engine';
import type { CheckResult } from './check-result.js';

/** Short names for the packages whose versions decide the pixels, in the order they are shown. */
const SHOWN: [string, string][] = [
  ['chromium-headless-shell', 'Chromium'],
  ['ffmpeg', 'ffmpeg'],
  ['fonts-noto-core', 'Noto'],
  ['fonts-noto-color-emoji', 'Noto Color Emoji'],
  ['fontconfig', 'fontconfig'],
];

/** "Chromium 156.0.8078.108-1~deb12u1, ffmpeg 7:5.1.9-0+deb12u1, ..." from package -> version. */
export function describeVersions(versions: Record<string, string>): string {
  return SHOWN.flatMap(([name, label]) => (versions[name] ? [`${label} ${versions[name]}`] : [])).join(', ');
}

/**
 * Inside a Seekframe image: what it holds, as recorded at build time. Renders from images with
 * equal versions give equal pixels; a build that had to take the archive's current version for a
 * preferred pin says which (still ok: the versions are recorded, compare only equal ones).
 * Outside an image (no record) there is no check.
 */
export function checkImageVersions(record: ImageVersions | null): CheckResult[] {
  if (!record) return [];
  const versions = Object.fromEntries(Object.entries(record.packages).map(([name, p]) => [name, p.version]));
  const pins = record.fallbacks.length
    ? `; built with the archive's current version instead of ${record.fallbacks.join(', ')}`
    : '; every preferred version';
  return [
    {
      id: 'image',
      title: 'Seekframe image',
      status: 'ok',
      summary: `Debian ${record.debian}: ${describeVersions(versions)}${pins}`,
      details: { ...record },
    },
  ];
}
