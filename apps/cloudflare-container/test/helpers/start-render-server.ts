import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { createRenderServerApp, type RenderServerOptions } from '../../container/render-server.js';

export const TINY_COMPOSITION = new URL('../fixtures/tiny/', import.meta.url).pathname;

/** The container's server as a real HTTP server on 127.0.0.1 (what local mode points the Worker at). */
export async function startRenderServer(
  options: Partial<RenderServerOptions> = {},
): Promise<{ url: string; workDir: string; close(): Promise<void> }> {
  const workDir = await mkdtemp(join(tmpdir(), 'seekframe-cf-container-'));
  const server = createRenderServerApp({
    compositionDir: TINY_COMPOSITION,
    workDir,
    maxConcurrent: 1,
    limits: { maxFrames: 600, maxRenderSeconds: 120, maxWorkers: 1, maxPixels: 1920 * 1080 },
    workers: 1,
    ...options,
  });
  const { listener, port } = await new Promise<{ listener: ReturnType<typeof serve>; port: number }>((resolve) => {
    const listener = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ listener, port: info.port }));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    workDir,
    async close() {
      await server.close();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

const run = promisify(execFile);

/** ffprobe's view of a video file: codec, size and frame count of its first video stream. */
export async function probeVideo(
  file: string,
): Promise<{ codec: string; width: number; height: number; frames: number; formatName: string }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_packets',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_packets:format=format_name',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: { codec_name: string; width: number; height: number; nb_read_packets: string }[];
    format: { format_name: string };
  };
  const stream = parsed.streams[0];
  if (!stream) throw new Error(`${file} has no video stream`);
  return {
    codec: stream.codec_name,
    width: stream.width,
    height: stream.height,
    frames: Number(stream.nb_read_packets),
    formatName: parsed.format.format_name,
  };
}
