import type { BrowserInfo, FfmpegInfo } from '@seekframe/engine';
import type { CheckResult } from './check-result.js';

/** Found browser, or the error `findBrowser` threw (its message already names the fix). */
export function checkBrowser(found: BrowserInfo | Error): CheckResult[] {
  if (found instanceof Error) {
    return [{ id: 'browser', title: 'Chromium', status: 'fail', summary: 'not found', fix: found.message }];
  }
  const via = found.wrapper ? `, via ${found.wrapper}` : '';
  const browser: CheckResult = {
    id: 'browser',
    title: 'Chromium',
    status: 'ok',
    summary: `${found.kind} ${found.version} at ${found.path} (${found.source}${via})`,
    details: { ...found },
  };
  const beginFrame: CheckResult = found.supportsBeginFrame
    ? {
        id: 'begin-frame',
        title: 'BeginFrame capture',
        status: 'ok',
        summary: 'HeadlessExperimental.beginFrame works: deterministic beginframe capture available',
      }
    : {
        id: 'begin-frame',
        title: 'BeginFrame capture',
        status: 'warn',
        summary: `${found.kind} does not answer HeadlessExperimental.beginFrame; renders use screenshot capture`,
        fix: 'For one deterministic paint per frame install the headless shell (apt-get install chromium-headless-shell) or set SEEKFRAME_BROWSER to a chrome-headless-shell binary.',
      };
  return [browser, beginFrame];
}

/** Which output formats need which encoders. mp4 is the default format, so it is required. */
export const FORMAT_ENCODERS = {
  mp4: ['libx264', 'aac'],
  webm: ['libvpx-vp9', 'libopus'],
  mov: ['prores_ks'],
  gif: ['gif'],
  'png-sequence': ['png'],
} as const satisfies Record<string, readonly (keyof FfmpegInfo['encoders'])[]>;

export function checkFfmpeg(found: FfmpegInfo | Error): CheckResult[] {
  if (found instanceof Error) {
    return [{ id: 'ffmpeg', title: 'ffmpeg', status: 'fail', summary: 'not found', fix: found.message }];
  }
  const ffmpeg: CheckResult = {
    id: 'ffmpeg',
    title: 'ffmpeg',
    status: 'ok',
    summary: `${found.version} at ${found.ffmpeg}; ffprobe at ${found.ffprobe}`,
    details: { ffmpeg: found.ffmpeg, ffprobe: found.ffprobe, version: found.version },
  };
  return [ffmpeg, checkEncoders(found.encoders)];
}

export function checkEncoders(encoders: Partial<Record<string, boolean>>): CheckResult {
  const missingBy = Object.entries(FORMAT_ENCODERS).map(([format, needed]) => ({
    format,
    missing: needed.filter((name) => !encoders[name]),
  }));
  const broken = missingBy.filter((entry) => entry.missing.length > 0);
  const present = Object.keys(encoders).filter((name) => encoders[name]);
  const base = { id: 'encoders', title: 'Encoders', details: { encoders } };
  if (broken.length === 0) return { ...base, status: 'ok', summary: `${present.join(', ')} (mp4, webm, mov, gif, png-sequence)` };
  const list = broken.map((b) => `${b.format} (needs ${b.missing.join(', ')})`).join('; ');
  return {
    ...base,
    status: broken.some((b) => b.format === 'mp4') ? 'fail' : 'warn',
    summary: `unavailable formats: ${list}`,
    fix: "This ffmpeg build lacks encoders; Debian's full build has all of them: apt-get install ffmpeg (or point SEEKFRAME_FFMPEG at a complete build).",
  };
}
