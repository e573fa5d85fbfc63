import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserProbeFile, rememberBeginFrame, rememberedBeginFrame, rememberedProbe } from './browser-probe-record.js';

let cacheDir: string;
let binary: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'seekframe-probe-cache-'));
  binary = path.join(cacheDir, 'fake-browser');
  await writeFile(binary, 'v1');
  env = { SEEKFRAME_CACHE_DIR: cacheDir };
});
afterEach(async () => rm(cacheDir, { recursive: true, force: true }));

describe('browser probe record', () => {
  it('knows nothing until a positive probe is remembered', async () => {
    expect(await rememberedBeginFrame(binary, env)).toBe(false);
    await rememberBeginFrame(binary, env);
    expect(await rememberedBeginFrame(binary, env)).toBe(true);
    const saved = JSON.parse(await readFile(browserProbeFile(env), 'utf8')) as Record<string, { size: number }>;
    expect(saved[binary]?.size).toBe(2);
  });

  it('forgets a binary that changed (an upgraded Chromium is probed again)', async () => {
    await rememberBeginFrame(binary, env);
    await writeFile(binary, 'version 2, a different size');
    expect(await rememberedBeginFrame(binary, env)).toBe(false);
  });

  it('remembers whether canvas capture worked; a record from before canvas capture asks for a new probe', async () => {
    await rememberBeginFrame(binary, env);
    expect(await rememberedProbe(binary, env)).toEqual({}); // beginFrame yes, canvas unknown: probe again
    await rememberBeginFrame(binary, env, true);
    expect(await rememberedProbe(binary, env)).toEqual({ canvas: true });
    await rememberBeginFrame(binary, env, false);
    expect(await rememberedProbe(binary, env)).toEqual({ canvas: false });
  });

  it('treats a corrupt cache file as empty and a missing binary as unknown', async () => {
    await writeFile(browserProbeFile(env), '{not json');
    expect(await rememberedBeginFrame(binary, env)).toBe(false);
    await rememberBeginFrame(binary, env);
    expect(await rememberedBeginFrame(binary, env)).toBe(true);
    expect(await rememberedBeginFrame(path.join(cacheDir, 'absent'), env)).toBe(false);
  });
});
