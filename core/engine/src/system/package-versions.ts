import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);

/**
 * What a Seekframe image holds, as infra/docker/apt-install-pinned.sh recorded it at build time
 * (the file SEEKFRAME_IMAGE_VERSIONS names inside the image): Debian's release, each package's
 * installed and preferred version, and which preferred versions were gone from the archive.
 */
export const imageVersionsSchema = z.object({
  debian: z.string(),
  packages: z.record(z.string(), z.object({ version: z.string(), preferred: z.string().nullable() })),
  fallbacks: z.array(z.string()),
});
export type ImageVersions = z.infer<typeof imageVersionsSchema>;

/** The packages whose versions decide how text rasterises (besides Chromium itself). */
export const FONT_PACKAGES = ['fonts-noto-core', 'fonts-noto-color-emoji', 'fontconfig'] as const;

/** The image's record, or null outside an image (SEEKFRAME_IMAGE_VERSIONS unset). A broken record is an error naming the file. */
export async function readImageVersions(env: NodeJS.ProcessEnv = process.env): Promise<ImageVersions | null> {
  const file = env.SEEKFRAME_IMAGE_VERSIONS;
  if (!file) return null;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = imageVersionsSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`SEEKFRAME_IMAGE_VERSIONS=${file} is not an image version record: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * Versions of the font packages renders rasterise text with: from the image's record, else from
 * dpkg on a Debian/Ubuntu host; null where neither says (another OS, fonts installed by hand).
 */
export async function fontPackageVersions(env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string> | null> {
  const image = await readImageVersions(env);
  if (image) {
    const found = FONT_PACKAGES.flatMap((name) => (image.packages[name] ? [[name, image.packages[name].version] as const] : []));
    return found.length ? Object.fromEntries(found) : null;
  }
  return dpkgVersions(FONT_PACKAGES);
}

/** Installed versions of Debian packages by dpkg-query; null without dpkg. */
export async function dpkgVersions(names: readonly string[]): Promise<Record<string, string> | null> {
  let stdout: string;
  try {
    ({ stdout } = await run('dpkg-query', ['-W', '-f=${Package}\t${db:Status-Abbrev}\t${Version}\n', ...names], { timeout: 10_000 }));
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & { stdout?: string };
    // Exit 1 when some name is not installed: the rest is still on stdout.
    if (failed.code === 'ENOENT' || typeof failed.stdout !== 'string') return null;
    stdout = failed.stdout;
  }
  const versions: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const [name, status, version] = line.split('\t');
    if (name && version && status?.startsWith('ii')) versions[name] = version;
  }
  return Object.keys(versions).length ? versions : null;
}
