import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../../', import.meta.url);
const read = (file: string) => readFile(new URL(file, root), 'utf8');

/** APT_PACKAGES's default list from scripts/setup.sh: `APT_PACKAGES="${SEEKFRAME_APT_PACKAGES:-a b c}"`. */
function setupPackages(script: string): string[] {
  const match = /^APT_PACKAGES="\$\{SEEKFRAME_APT_PACKAGES:-([^}]*)\}"/m.exec(script);
  if (!match) throw new Error('scripts/setup.sh no longer sets APT_PACKAGES the way this test reads it');
  return match[1]!.trim().split(/\s+/);
}

/** The packages (name -> preferred version or undefined) the Dockerfile hands apt-install-pinned.sh. */
function pinnedPackages(dockerfile: string): Map<string, string | undefined> {
  const joined = dockerfile.replace(/\\\r?\n/g, ' ');
  const line = joined.split('\n').find((l) => /^RUN sh \/usr\/local\/lib\/seekframe\/apt-install-pinned\.sh /.test(l));
  if (!line) throw new Error('no RUN step calls apt-install-pinned.sh');
  const packages = new Map<string, string | undefined>();
  for (const word of line.trim().split(/\s+/).slice(3)) {
    const [name, version] = word.split('=');
    packages.set(name!, version);
  }
  return packages;
}

/** From the first preferred-version ARG through the apt-install-pinned.sh RUN step. */
function systemStep(dockerfile: string): string {
  const start = dockerfile.indexOf('ARG CHROMIUM_VERSION=');
  const run = dockerfile.indexOf('RUN sh /usr/local/lib/seekframe/apt-install-pinned.sh');
  const end = dockerfile.indexOf('\n\n', run);
  if (start < 0 || run < 0 || end < 0) throw new Error('the system packages step is not where this test looks for it');
  return dockerfile.slice(start, end);
}

const DOCKERFILES = ['infra/docker/Dockerfile', 'apps/cloudflare-container/Dockerfile'];
/** The full browser is for the host (screenshot capture, preview); images capture with the headless shell. */
const HOST_ONLY = new Set(['chromium']);

describe.each(DOCKERFILES)('%s', (file) => {
  it('installs every render package scripts/setup.sh installs (but the full browser), each pinned to a preferred version with a default', async () => {
    const wanted = setupPackages(await read('scripts/setup.sh')).filter((name) => !HOST_ONLY.has(name));
    const dockerfile = await read(file);
    const installed = pinnedPackages(dockerfile);
    expect(wanted.length).toBeGreaterThan(0);
    for (const name of wanted) {
      expect(installed.has(name), `${name} from scripts/setup.sh is missing from ${file}`).toBe(true);
      expect(installed.get(name), `${name} has no preferred version (name=\${VERSION})`).toMatch(/^\$\{[A-Z_]+\}$/);
    }
    expect(installed.has('chromium')).toBe(false);
    for (const pin of [...installed.values()].filter((v): v is string => v !== undefined)) {
      expect(dockerfile).toMatch(new RegExp(`^ARG ${pin.slice(2, -1)}=\\S+$`, 'm'));
    }
  });

  it('builds on the official Node 20 bookworm image by default, any base by BASE_IMAGE, and captures with the headless shell', async () => {
    const dockerfile = await read(file);
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=docker\.io\/library\/node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^FROM \$\{BASE_IMAGE\}$/m);
    expect(dockerfile).toMatch(/SEEKFRAME_BROWSER=\/usr\/bin\/chromium-headless-shell/);
    expect(dockerfile).toMatch(/SEEKFRAME_IMAGE_VERSIONS=\/usr\/share\/seekframe\/image-versions\.json/);
  });
});

describe('the render images', () => {
  it('install their system packages with the same step, byte for byte, so the two images share the layer', async () => {
    const [render, cloudflare] = await Promise.all(DOCKERFILES.map(read));
    expect(systemStep(cloudflare!)).toBe(systemStep(render!));
  });

  it('the render image runs the seekframe CLI, as node unless told otherwise', async () => {
    const dockerfile = await read('infra/docker/Dockerfile');
    expect(dockerfile).toMatch(/^ENTRYPOINT \[.*"seekframe"\]$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
