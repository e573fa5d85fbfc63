import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seekframeCacheDir } from '../system/seekframe-cache-dir.js';

/**
 * Remembers, across processes, that a browser binary answered HeadlessExperimental.beginFrame.
 * The probe launches a whole browser (0.5-2 s) on every CLI render otherwise. A record is keyed
 * by the binary's path, size and mtime, so an upgraded Chromium is probed again. Only a positive
 * answer is stored: a probe that failed (perhaps only timed out on a busy machine) is retried by
 * the next process instead of pinning renders to the slower screenshot capture.
 */
interface ProbeRecord {
  size: number;
  mtimeMs: number;
  /** HTML-in-canvas capture works too (canvas-capture.ts); absent in records older than canvas capture: probe again. */
  canvas?: boolean;
}

type ProbeFile = Record<string, ProbeRecord>;

export function browserProbeFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(seekframeCacheDir(env), 'browser-probes.json');
}

async function fingerprint(browserPath: string): Promise<ProbeRecord | undefined> {
  const info = await stat(browserPath).catch(() => undefined);
  return info ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
}

async function readProbeFile(file: string): Promise<ProbeFile> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ProbeFile) : {};
  } catch {
    return {}; // absent or unreadable: probe again
  }
}

/** True when this exact binary answered beginFrame before. */
export async function rememberedBeginFrame(browserPath: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await rememberedProbe(browserPath, env)) !== undefined;
}

/** What this exact binary answered before (beginFrame worked), with whether canvas capture did; undefined: probe. */
export async function rememberedProbe(
  browserPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ canvas?: boolean } | undefined> {
  const [now, saved] = await Promise.all([fingerprint(browserPath), readProbeFile(browserProbeFile(env))]);
  const record = saved[browserPath];
  if (!now || !record || record.size !== now.size || record.mtimeMs !== now.mtimeMs) return undefined;
  return record.canvas === undefined ? {} : { canvas: record.canvas };
}

/** Records a positive probe; never fails the caller (a read-only home just means no cache). */
export async function rememberBeginFrame(browserPath: string, env: NodeJS.ProcessEnv = process.env, canvas?: boolean): Promise<void> {
  try {
    const now = await fingerprint(browserPath);
    if (!now) return;
    const file = browserProbeFile(env);
    const saved = await readProbeFile(file);
    saved[browserPath] = canvas === undefined ? now : { ...now, canvas };
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(saved, null, 2));
    await rename(temp, file);
  } catch {
    // caching is an optimisation only
  }
}
