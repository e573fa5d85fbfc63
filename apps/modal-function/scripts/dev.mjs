// `npm run dev`: the real src/app.py on this machine, with the local stand-in for the modal
// module (spawn = a subprocess, the volume = .modal-local/volume), on 127.0.0.1:$PORT (8000).
// Needs python3 with FastAPI and uvicorn (Debian: apt install python3-fastapi python3-uvicorn;
// elsewhere: pip install fastapi uvicorn).
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('..', import.meta.url));
// Debian's python3 is the one python3-fastapi/python3-uvicorn install into.
const python = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const port = process.env.PORT ?? '8000';
const state = path.join(appDir, '.modal-local');

const check = spawnSync(python, ['-c', 'import fastapi, uvicorn'], { encoding: 'utf8' });
if (check.status !== 0) {
  console.error(
    `npm run dev needs ${python} with FastAPI and uvicorn (${check.error ? check.error.message : check.stderr.trim().split('\n').pop()}).\n` +
      'Install them: apt install python3-fastapi python3-uvicorn (Debian, Ubuntu), or pip install fastapi uvicorn; PYTHON=<path> picks another python.',
  );
  process.exit(1);
}
const volume = process.env.SEEKFRAME_VOLUME_PATH ?? path.join(state, 'volume');
mkdirSync(volume, { recursive: true });
execFileSync(process.execPath, [path.join(appDir, 'scripts/build.mjs')], { stdio: 'inherit' });

console.log(`Seekframe on "Modal" (local stand-in): http://127.0.0.1:${port}  (volume: ${volume})`);
const child = spawn(
  python,
  ['-m', 'uvicorn', 'app:create_web_app', '--factory', '--app-dir', 'src', '--host', '127.0.0.1', '--port', port],
  {
    cwd: appDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      PYTHONPATH: path.join(appDir, 'local'),
      PYTHONDONTWRITEBYTECODE: '1',
      SEEKFRAME_VOLUME_PATH: process.env.SEEKFRAME_VOLUME_PATH ?? path.join(state, 'volume'),
      MODAL_LOCAL_STATE_DIR: process.env.MODAL_LOCAL_STATE_DIR ?? path.join(state, 'state'),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal));
child.once('exit', (code) => process.exit(code ?? 0));
