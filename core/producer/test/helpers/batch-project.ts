import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BatchEvent } from '../../src/index.js';
import { ffmpeg } from './media-tools.js';
import { composition, tempProject } from './temp-project.js';

/**
 * A 160x90, 0.3 s, 10 fps composition (3 frames) for batch tests: `bg` paints the background,
 * `logo` is an image path loaded by a script (a missing file makes the row fail with a 404).
 */
export async function batchProject(): Promise<{ dir: string; project: string; cleanup(): Promise<void> }> {
  const variables = [
    { id: 'title', label: 'Title', type: 'string', default: 'untitled' },
    { id: 'bg', label: 'Background', type: 'color', default: '#000000' },
    { id: 'logo', label: 'Logo', type: 'string', default: 'logo.png' },
  ];
  const temp = await tempProject({
    'promo/index.html': composition({
      id: 'promo',
      duration: 0.3,
      fps: 10,
      variables,
      body: `<script>
  const v = window.__seekframe.getVariables();
  document.body.style.background = v.bg ?? '#000000';
  const img = document.createElement('img');
  img.src = v.logo ?? 'logo.png';
  img.style.cssText = 'position:absolute;left:0;top:0;width:8px;height:8px';
  document.body.append(img);
</script>`,
    }),
  });
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=8x8', '-frames:v', '1', path.join(temp.dir, 'promo', 'logo.png')]);
  return { ...temp, project: path.join(temp.dir, 'promo') };
}

export async function readJson(file: string): Promise<any> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** Collects a batch's events for a test to inspect. */
export function eventLog(): {
  events: BatchEvent[];
  push(event: BatchEvent): void;
  of<T extends BatchEvent['type']>(type: T): Extract<BatchEvent, { type: T }>[];
} {
  const events: BatchEvent[] = [];
  return {
    events,
    push: (event) => events.push(event),
    of: (type) => events.filter((event) => event.type === type) as never,
  };
}
