import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutCli, folderKeys, freePort, waitUntilAnswers } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';

export const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
// Debian's python3 is the one python3-fastapi/python3-uvicorn install into.
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Stops uvicorn, then every spawned render (each runs in its own process group). */
async function stopPython(child: ChildProcess, state: string): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const calls = path.join(state, 'calls');
  const alive = (pid: number): boolean => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const name of existsSync(calls) ? await readdir(calls) : []) {
    if (!/^fc-[0-9a-f]+\.json$/.test(name)) continue;
    const { pid } = JSON.parse(await readFile(path.join(calls, name), 'utf8')) as { pid: number };
    if (!alive(pid)) continue;
    // SIGTERM first: the render function and the CLI clean up their temp folders; SIGKILL after 10 s.
    process.kill(-pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) process.kill(-pid, 'SIGKILL');
  }
}

export interface PythonApp {
  url: string;
  stop(): Promise<void>;
  /** Keys under the volume's renders/ folder. */
  storedKeys(): Promise<string[]>;
}

const CLI = checkoutCli();

/**
 * The real src/app.py under uvicorn on 127.0.0.1 with the local modal stand-in (spawn = a
 * subprocess running the CLI from source, the volume = a temp folder), serving `compositionDir`
 * (COMPOSITIONS_DIR + PREVIEW_COMPOSITION; default the contract composition) with the files
 * scripts/build.mjs prepared in `dist` (default dist/). `env` comes last (it may set any of these).
 */
export async function startPythonApp(
  options: { compositionDir?: string; env?: Record<string, string>; dist?: string } = {},
): Promise<PythonApp> {
  const root = await mkdtemp(path.join(tmpdir(), 'modal-function-'));
  const port = await freePort();
  const compositionDir = options.compositionDir ?? contractCompositionDir();
  const env: Record<string, string> = {
    SEEKFRAME_CLI: [CLI.command, ...CLI.args].join(' '),
    SEEKFRAME_WORKERS: '1',
    SEEKFRAME_VOLUME_PATH: path.join(root, 'volume'),
    MODAL_LOCAL_STATE_DIR: path.join(root, 'state'),
    COMPOSITIONS_DIR: path.dirname(compositionDir),
    PREVIEW_COMPOSITION: path.basename(compositionDir),
    ...(options.dist ? { SEEKFRAME_TEMPLATE_DIST: options.dist } : {}),
    ...options.env,
  };
  const child = spawn(
    PYTHON,
    [
      '-m',
      'uvicorn',
      'app:create_web_app',
      '--factory',
      '--app-dir',
      'src',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      'warning',
    ],
    {
      cwd: APP_DIR,
      env: { ...process.env, PYTHONPATH: path.join(APP_DIR, 'local'), PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopPython(child, env.MODAL_LOCAL_STATE_DIR!);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswers(`${url}/`, { name: 'uvicorn', exitCode: () => child.exitCode });
  } catch (error) {
    // An exited uvicorn has nothing left to stop (stopPython waits for an exit).
    if (child.exitCode === null) await stop();
    else await rm(root, { recursive: true, force: true });
    throw error;
  }
  const storedKeys = async (): Promise<string[]> =>
    (await folderKeys(env.SEEKFRAME_VOLUME_PATH!)).filter((key) => key.startsWith('renders/'));
  return { url, stop, storedKeys };
}
