import { describe, expect, it } from 'vitest';
import { containerOutputRelay, type PathMapping } from './relay-container-output.js';

const mapping: PathMapping = {
  output: '/home/ada/renders/promo.mp4',
  outputShown: 'renders/promo.mp4',
  projectRoot: '/home/ada/promo',
  outputName: 'promo.mp4',
};

function relay(json: boolean, chunks: string[]): string {
  let text = '';
  const r = containerOutputRelay(mapping, json, (t) => (text += t));
  for (const chunk of chunks) r.push(chunk);
  r.flush();
  return text;
}

describe('containerOutputRelay', () => {
  it('--json: the complete event names the host file; other lines pass unchanged, even split across chunks', () => {
    const complete = JSON.stringify({ type: 'complete', output: '/output/promo.mp4', size: 5, durationMs: 1, videoDuration: 1 });
    const stage = JSON.stringify({ type: 'stage', stage: 'capture' });
    const text = relay(true, [
      stage.slice(0, 7),
      `${stage.slice(7)}\n${complete.slice(0, 20)}`,
      `${complete.slice(20)}\n`,
      'Emulate Docker CLI using podman.',
    ]);
    const lines = text.split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ type: 'stage', stage: 'capture' });
    expect(JSON.parse(lines[1]!)).toEqual({
      type: 'complete',
      output: '/home/ada/renders/promo.mp4',
      size: 5,
      durationMs: 1,
      videoDuration: 1,
    });
    expect(lines[2]).toBe('Emulate Docker CLI using podman.');
  });

  it('human lines show host paths for the output and the project', () => {
    expect(relay(false, ['rendered /output/promo.mp4 (2 KB, 10 frames, 1.0 s)\n', 'lint: /project/index.html:3 unknown attribute\n'])).toBe(
      'rendered renders/promo.mp4 (2 KB, 10 frames, 1.0 s)\nlint: /home/ada/promo/index.html:3 unknown attribute\n',
    );
    expect(relay(false, ['/projectile and /output/other.mp4 stay'])).toBe('/projectile and /output/other.mp4 stay');
  });
});
