import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../../', import.meta.url);

/** APT_PACKAGES's default list from scripts/setup.sh: `APT_PACKAGES="${SEEKFRAME_APT_PACKAGES:-a b c}"`. */
function setupPackages(script: string): string[] {
  const match = /^APT_PACKAGES="\$\{SEEKFRAME_APT_PACKAGES:-([^}]*)\}"/m.exec(script);
  if (!match) throw new Error('scripts/setup.sh no longer sets APT_PACKAGES the way this test reads it');
  return match[1]!.trim().split(/\s+/);
}

/** Package names (pins `=version` dropped) of every `apt-get install` in the Dockerfile's RUN lines. */
function dockerfilePackages(dockerfile: string): Map<string, string | undefined> {
  const joined = dockerfile.replace(/\\\r?\n/g, ' ');
  const packages = new Map<string, string | undefined>();
  for (const line of joined.split('\n').filter((l) => /^\s*RUN\b/.test(l))) {
    for (const command of line.split(/&&|;/)) {
      const words = command.trim().split(/\s+/);
      const at = words.indexOf('install');
      if (at < 1 || words[at - 1] !== 'apt-get') continue;
      for (const word of words.slice(at + 1).filter((w) => !w.startsWith('-'))) {
        const [name, version] = word.split('=');
        packages.set(name!, version);
      }
    }
  }
  return packages;
}

describe('infra/docker/Dockerfile', () => {
  it('installs every package scripts/setup.sh installs, each pinned to a version', async () => {
    const wanted = setupPackages(await readFile(new URL('scripts/setup.sh', root), 'utf8'));
    const dockerfile = await readFile(new URL('infra/docker/Dockerfile', root), 'utf8');
    const installed = dockerfilePackages(dockerfile);
    expect(wanted.length).toBeGreaterThan(0);
    for (const name of wanted) {
      expect(installed.has(name), `${name} from scripts/setup.sh is missing from the Dockerfile's apt-get install`).toBe(true);
      expect(installed.get(name), `${name} is not pinned (name=\${VERSION})`).toMatch(/^\$\{[A-Z_]+\}$/);
    }
    // Every pin has a default value, so a plain `docker build` is reproducible.
    for (const pin of [...installed.values()].filter((v): v is string => v !== undefined)) {
      expect(dockerfile).toMatch(new RegExp(`^ARG ${pin.slice(2, -1)}=\\S+$`, 'm'));
    }
  });

  it('is Debian bookworm with Node 20 and runs the seekframe CLI', async () => {
    const dockerfile = await readFile(new URL('infra/docker/Dockerfile', root), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-bookworm/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \[.*"seekframe"\]$/m);
    expect(dockerfile).toMatch(/SEEKFRAME_BROWSER=\/usr\/bin\/chromium-headless-shell/);
  });
});
