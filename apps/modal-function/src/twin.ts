/**
 * The TypeScript local twin of this template: the same render API (@seekframe/render-api) in
 * the function template's answer mode ('call-id'), the local-process runner in place of the
 * spawned Modal function, and a folder in place of the `seekframe-renders` volume (its
 * `renders/<id>.<ext>` files are served at GET /renders/<name>, as the Modal app does).
 *   npm run dev:twin -w @seekframe/modal-function   (PORT, PREVIEW_COMPOSITION, RENDER_API_TOKEN...)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveLocal, type CliCommand, type LocalRenderApi, type ServeLocalOptions } from '@seekframe/render-api/node';
import { seekframeBin } from 'seekframe/bin-path';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `compositions/` of the project, found upwards as src/template_settings.py does (in the
 *  Seekframe monorepo: the repository's). */
export const COMPOSITIONS_DIR = findUpwards(APP_DIR, 'compositions') ?? path.join(APP_DIR, 'compositions');

function findUpwards(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface TwinOptions extends Omit<ServeLocalOptions, 'compositionDir' | 'answerMode' | 'runner'> {
  /** Passed to the local runner; default `cli`: twinCli(env). */
  runner?: Partial<ServeLocalOptions['runner']>;
  /** A folder with index.html; default compositions/<PREVIEW_COMPOSITION or ui-3d-reveal>. */
  compositionDir?: string;
  /** The volume folder; default a new temp folder. */
  volumeDir?: string;
}

/** SEEKFRAME_CLI (a path to an executable) when set, else this project's installed `seekframe` bin. */
function twinCli(env: Record<string, string | undefined>): CliCommand {
  const configured = env.SEEKFRAME_CLI?.trim();
  return configured ? { command: configured, args: [] } : { command: process.execPath, args: [seekframeBin] };
}

export function startTwin(options: TwinOptions = {}): Promise<LocalRenderApi> {
  const env = options.env ?? process.env;
  const compositionDir = options.compositionDir ?? path.join(COMPOSITIONS_DIR, env.PREVIEW_COMPOSITION?.trim() || 'ui-3d-reveal');
  const { volumeDir, ...rest } = options;
  return serveLocal({
    ...rest,
    env,
    compositionDir,
    answerMode: 'call-id',
    serveRendersRoute: true,
    ...(volumeDir ? { dataDir: volumeDir } : {}),
    runner: { cli: twinCli(env), workers: 'auto', browserGpu: false, ...rest.runner },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const api = await startTwin({ port: Number(process.env.PORT ?? 8000) });
  console.log(`Seekframe (modal-function twin) on ${api.url}  volume: ${api.dataDir}`);
  const stop = () => void api.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
