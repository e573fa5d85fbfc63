import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { BrowserSession } from '@seekframe/engine';
import { bundlePlayer } from '../../scripts/bundle.mjs';
import { launchPlayerBrowser } from './player-browser.js';
import { startStaticServer, type StaticServer } from './static-server.js';

export interface PlayerSite {
  /** The temp folder served as the site root; holds /seekframe-player.js. */
  readonly dir: string;
  readonly statics: StaticServer;
  readonly session: BrowserSession;
}

/**
 * Registers beforeAll/afterAll for a temp site: a fresh player bundle at /seekframe-player.js plus
 * whatever `write(dir)` adds, served by the plain static server, and a player browser.
 */
export function usePlayerSite(prefix: string, write: (dir: string) => Promise<void>): PlayerSite {
  let dir: string | undefined;
  let statics: StaticServer | undefined;
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    await writeFile(path.join(dir, 'seekframe-player.js'), (await bundlePlayer({ write: false })) as string);
    await write(dir);
    statics = await startStaticServer(dir);
    session = await launchPlayerBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await statics?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`usePlayerSite: ${name} used before beforeAll ran`);
    return value;
  };
  return {
    get dir() {
      return ready(dir, 'dir');
    },
    get statics() {
      return ready(statics, 'statics');
    },
    get session() {
      return ready(session, 'session');
    },
  };
}
