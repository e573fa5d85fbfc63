import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, type ProducerServer } from '../src/index.js';
import { probe } from './helpers/media-tools.js';
import { getJson, streamRender } from './helpers/server-client.js';
import { tempProject } from './helpers/temp-project.js';
import { tinyComposition } from './helpers/server-client.js';

let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;

beforeAll(async () => {
  project = await tempProject({ 'tiny/index.html': tinyComposition() });
  server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 4, env: {} });
});

afterAll(async () => {
  await server?.close();
  await project?.cleanup();
});

describe('producer server under load', () => {
  it('50 concurrent clients with tiny renders all complete, none lost, each output distinct', async () => {
    const clients = Array.from({ length: 50 }, () => streamRender(server.url, { projectDir: 'tiny', workers: 1, quality: 'draft' }));
    const results = await Promise.all(clients.map((client) => client.done));
    const queuedPositions = new Set<number>();
    const outputs = new Set<string>();
    for (const events of results) {
      const finals = events.filter((e) => e.type === 'complete' || e.type === 'error' || e.type === 'cancelled');
      expect(finals).toEqual([expect.objectContaining({ type: 'complete' })]);
      outputs.add((finals[0] as { outputUrl: string }).outputUrl);
      for (const e of events) if (e.type === 'queued') queuedPositions.add(e.position);
    }
    expect(outputs.size).toBe(50);
    // 4 start at once; the other 46 waited, and the last in line started at position 46.
    expect(results.filter((events) => events.some((e) => e.type === 'queued'))).toHaveLength(46);
    expect(Math.max(...queuedPositions)).toBe(46);
    for (const url of outputs) {
      const probed = await probe(path.join(server.config.outputsDir, `${path.basename(url)}.mp4`));
      expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', width: 32, height: 32, nb_read_frames: '2' });
    }
    expect((await getJson(`${server.url}/render/queue`)).body).toEqual({ maxConcurrentRenders: 4, activeRenders: 0, queuedRenders: 0 });
  }, 240_000);
});
