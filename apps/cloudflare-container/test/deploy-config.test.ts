import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';

/**
 * What cannot run here (a deploy) is checked by reading it: the Dockerfile copies what
 * scripts/build.mjs writes; wrangler.jsonc (read and validated by wrangler's own config reader)
 * has the settings the template promises.
 */
const app = new URL('../', import.meta.url);
const read = (base: URL, path: string) => readFile(new URL(path, base), 'utf8');

// The package list, the preferred versions and the shared install step are checked for both
// images in core/cli/src/docker/dockerfile.test.ts; the image itself is built and run by
// container-image.test.ts.
describe('Dockerfile', () => {
  it('is Debian bookworm with Node 20, runs the render server on the Container class port, with the headless shell', async () => {
    const dockerfile = await read(app, 'Dockerfile');
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=docker\.io\/library\/node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/SEEKFRAME_BROWSER=\/usr\/bin\/chromium-headless-shell/);
    expect(dockerfile).toMatch(/^CMD \["node", "\/app\/server\.mjs"\]$/m);
    const port = /PORT=(\d+)/.exec(dockerfile)?.[1];
    const defaultPort = /defaultPort = (\d+)/.exec(await read(app, 'src/renderer-container.ts'))?.[1];
    expect(port).toBeDefined();
    expect(port).toBe(defaultPort);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    // It copies exactly what scripts/build.mjs writes into dist/container/.
    const copied = [...dockerfile.matchAll(/^COPY (\S+) /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual([
      'dist/container/app/',
      'dist/container/apt-install-pinned.sh',
      'dist/container/composition/',
      'dist/container/server.mjs',
    ]);
    // Only those reach the engine.
    expect((await read(app, '.dockerignore')).split('\n').filter((line) => line && !line.startsWith('#'))).toEqual([
      '*',
      '!dist/container/',
    ]);
  });
});

describe('wrangler.jsonc (validated by wrangler 4.86)', () => {
  const config = () => unstable_readConfig({ config: new URL('wrangler.jsonc', app).pathname });

  it('one Container class on standard-4 with max_instances equal to RENDER_MAX_CONCURRENT, the R2 bucket seekframe-renders', () => {
    const cfg = config();
    expect(cfg.containers).toHaveLength(1);
    const [container] = cfg.containers!;
    expect(container).toMatchObject({ class_name: 'Renderer', instance_type: 'standard-4' });
    expect(container!.max_instances).toBeGreaterThan(0);
    const vars = cfg.vars as Record<string, string>;
    expect(Number(vars.RENDER_MAX_CONCURRENT)).toBe(container!.max_instances);
    expect(cfg.r2_buckets).toEqual([expect.objectContaining({ binding: 'RENDERS', bucket_name: 'seekframe-renders' })]);
    const bindings = Object.fromEntries(
      cfg.durable_objects.bindings.map((b: { name: string; class_name: string }) => [b.name, b.class_name]),
    );
    expect(bindings).toEqual({ RENDERER: 'Renderer', JOBS: 'RenderJobObject' });
    expect(cfg.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []).sort()).toEqual([
      'RenderJobObject',
      'Renderer',
    ]);
    expect(cfg.main).toMatch(/dist\/worker\/worker\.js$/);
    // One module: nothing from dist/container (the image's files) may be attached to the Worker.
    expect(cfg.find_additional_modules).toBe(false);
    // Durable Objects stay alive while their call to the container is pending from this date on.
    expect(cfg.compatibility_date! >= '2026-10-01').toBe(true);
  });

  it("the Container's sleepAfter is longer than the longest render (RENDER_MAX_SECONDS)", async () => {
    const source = await read(app, 'src/renderer-container.ts');
    const sleepAfter = /sleepAfter = '(\d+)([smh])'/.exec(source);
    expect(sleepAfter).not.toBeNull();
    const seconds = Number(sleepAfter![1]) * { s: 1, m: 60, h: 3600 }[sleepAfter![2] as 's' | 'm' | 'h'];
    const maxRenderSeconds = Number((config().vars as Record<string, string>).RENDER_MAX_SECONDS);
    expect(maxRenderSeconds).toBeGreaterThan(0);
    expect(seconds).toBeGreaterThan(maxRenderSeconds);
  });
});
