import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition } from '../src/index.js';
import { tempProject } from './helpers/temp-project.js';

/**
 * Text is placed on subpixel positions whichever browser renders it: chrome-headless-shell
 * (beginframe) and full Chromium (screenshot) give the same pixels. Without the runtime's
 * `text-rendering: geometricPrecision` on the root, headless-shell snaps glyphs to whole pixels
 * and the two differ (the author may still choose `auto`: then they do, which proves the point).
 */
const page = (extraHead = '') => `<!doctype html>
<html data-composition-id="letters" data-width="160" data-height="90" data-duration="0.1">
<head>${extraHead}<style>html,body{margin:0;background:#0a0a0f;color:#f5f5f5;font-family:Inter,sans-serif}
span{display:inline-block;font-size:23px;font-weight:800;letter-spacing:-0.04em}</style></head>
<body><div style="padding:30px 7.3px"><span>H</span><span>Y</span><span>P</span><span>E</span><span>R</span><span>F</span><span>R</span><span>A</span><span>M</span><span>E</span><span>S</span></div></body></html>`;

let project: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  project = await tempProject({ 'default/index.html': page(), 'auto/index.html': page('<style>html{text-rendering:auto}</style>') });
});
afterAll(async () => project?.cleanup());

async function frame(name: string, browser: 'headless-shell' | 'chromium'): Promise<Buffer> {
  const output = path.join(project.dir, `${name}-${browser}`);
  const previous = process.env.SEEKFRAME_BROWSER;
  if (browser === 'chromium') process.env.SEEKFRAME_BROWSER = '/usr/bin/chromium';
  try {
    await renderComposition({ projectDir: path.join(project.dir, name), output, format: 'png-sequence', fps: 10, workers: 1 });
  } finally {
    if (previous === undefined) delete process.env.SEEKFRAME_BROWSER;
    else process.env.SEEKFRAME_BROWSER = previous;
  }
  return readFile(path.join(output, 'frame_000001.png'));
}

describe('glyph positions', () => {
  it('are the same in chrome-headless-shell and in full Chromium', async () => {
    expect((await frame('default', 'headless-shell')).equals(await frame('default', 'chromium'))).toBe(true);
  });

  it('differ between them when the author sets text-rendering: auto (the rule the runtime adds is what aligns them)', async () => {
    expect((await frame('auto', 'headless-shell')).equals(await frame('auto', 'chromium'))).toBe(false);
  });
});
