import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';

/**
 * What cannot run here (Docker, a deploy) is checked by reading it: the Dockerfile installs the
 * packages scripts/setup.sh installs for rendering, pinned like the --docker image; wrangler.jsonc
 * (read and validated by wrangler's own config reader) has the settings the template promises.
 */
const app = new URL('../', import.meta.url);
const root = new URL('../../../', import.meta.url);
const read = (base: URL, path: string) => readFile(new URL(path, base), 'utf8');

/** APT_PACKAGES's default list in scripts/setup.sh: `APT_PACKAGES="${SEEKFRAME_APT_PACKAGES:-a b c}"`. */
function setupAptPackages(script: string): string[] {
  const match = /^APT_PACKAGES="\$\{SEEKFRAME_APT_PACKAGES:-([^}]*)\}"/m.exec(script);
  if (!match?.[1]) throw new Error('scripts/setup.sh no longer sets APT_PACKAGES the way this test reads it');
  return match[1].trim().split(/\s+/);
}

/** `apt-get install` arguments of every RUN instruction: package name -> pinned version (or undefined). */
function aptInstalls(dockerfile: string): Map<string, string | undefined> {
  const packages = new Map<string, string | undefined>();
  const instructions = dockerfile.replace(/\\\r?\n/g, ' ').split('\n');
  for (const instruction of instructions.filter((line) => /^\s*RUN\s/.test(line))) {
    for (const command of instruction.split(/&&|;|\|\|/)) {
      const words = command.trim().split(/\s+/);
      const install = words.findIndex((word, i) => word === 'install' && words[i - 1] === 'apt-get');
      if (install < 0) continue;
      for (const word of words.slice(install + 1)) {
        if (word.startsWith('-')) continue;
        const [name, version] = word.split('=');
        packages.set(name!, version);
      }
    }
  }
  return packages;
}

/** `ARG NAME=value` defaults. */
function argDefaults(dockerfile: string): Map<string, string> {
  return new Map([...dockerfile.matchAll(/^ARG (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Image plumbing that is no part of what renders a frame. */
const INFRASTRUCTURE = new Set(['fontconfig', 'ca-certificates', 'tini']);
/** setup.sh's packages the render image needs: the headless shell, ffmpeg, fonts. `chromium`
 *  (the full browser) is left out on purpose: SEEKFRAME_BROWSER is the headless shell. */
const isRenderPackage = (name: string) => name === 'chromium-headless-shell' || name === 'ffmpeg' || name.startsWith('fonts-');

describe('Dockerfile (not buildable here: checked by reading it)', () => {
  it('installs every render package of scripts/setup.sh, pinned to the versions of the --docker image, and nothing else but image plumbing', async () => {
    const wanted = setupAptPackages(await read(root, 'scripts/setup.sh')).filter(isRenderPackage);
    const dockerfile = await read(app, 'Dockerfile');
    const installs = aptInstalls(dockerfile);
    const args = argDefaults(dockerfile);
    const infraArgs = argDefaults(await read(root, 'infra/docker/Dockerfile'));
    expect(wanted).toEqual(expect.arrayContaining(['chromium-headless-shell', 'ffmpeg']));
    for (const name of wanted) {
      expect(installs.has(name), `${name} (scripts/setup.sh) is not installed by the Dockerfile`).toBe(true);
      const pin = installs.get(name);
      expect(pin, `${name} is not pinned to \${ARG}`).toMatch(/^\$\{[A-Z0-9_]+\}$/);
      const arg = pin!.slice(2, -1);
      expect(args.get(arg), `ARG ${arg} has no default`).toBeDefined();
      // Same pixels as `seekframe render --docker`: the same builds.
      expect(args.get(arg), `ARG ${arg} differs from infra/docker/Dockerfile`).toBe(infraArgs.get(arg));
    }
    for (const name of installs.keys()) {
      expect(wanted.includes(name) || INFRASTRUCTURE.has(name), `${name} is installed but is neither in scripts/setup.sh's render packages nor image plumbing`).toBe(true);
    }
    expect(installs.has('chromium')).toBe(false);
  });

  it('is Debian bookworm with Node 20, runs the render server on the Container class port, with the headless shell', async () => {
    const dockerfile = await read(app, 'Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:20-bookworm(-slim)?$/m);
    expect(dockerfile).toMatch(/SEEKFRAME_BROWSER=\/usr\/bin\/chromium-headless-shell/);
    expect(dockerfile).toMatch(/^CMD \["node", "\/app\/server\.mjs"\]$/m);
    const port = /PORT=(\d+)/.exec(dockerfile)?.[1];
    const defaultPort = /defaultPort = (\d+)/.exec(await read(app, 'src/renderer-container.ts'))?.[1];
    expect(port).toBeDefined();
    expect(port).toBe(defaultPort);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    // It copies exactly what scripts/build.mjs writes into dist/container/.
    const copied = [...dockerfile.matchAll(/^COPY (\S+) /gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual(['dist/container/composition/', 'dist/container/package.json', 'dist/container/packs/', 'dist/container/server.mjs']);
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
    const bindings = Object.fromEntries(cfg.durable_objects.bindings.map((b: { name: string; class_name: string }) => [b.name, b.class_name]));
    expect(bindings).toEqual({ RENDERER: 'Renderer', JOBS: 'RenderJobObject' });
    expect(cfg.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []).sort()).toEqual(['RenderJobObject', 'Renderer']);
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
