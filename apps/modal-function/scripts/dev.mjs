// `npm run dev -w @seekframe/modal-function`: the real src/app.py on this machine, with the
// local stand-in for the modal module (spawn = a subprocess, the volume = .modal-local/volume).
// Needs Debian's python3-fastapi and python3-uvicorn (scripts/setup.sh installs them).
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const repo = path.resolve(appDir, '../..');
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const port = process.env.PORT ?? '8000';
const state = path.join(appDir, '.modal-local');
mkdirSync(path.join(state, 'volume'), { recursive: true });

execFileSync(process.execPath, [path.join(appDir, 'scripts/build.mjs')], { stdio: 'inherit' });

// The CLI from this checkout's TypeScript sources (through tsx), so a stale build never renders.
const cli = `${process.execPath} --import ${path.join(repo, 'node_modules/tsx/dist/loader.mjs')} --conditions=source ${path.join(repo, 'adapters/render-api/scripts/run-cli-from-source.mjs')}`;

console.log(`Seekframe on "Modal" (local stand-in): http://127.0.0.1:${port}  (volume: ${path.join(state, 'volume')})`);
const child = spawn(python, ['-m', 'uvicorn', 'app:create_web_app', '--factory', '--app-dir', 'src', '--host', '127.0.0.1', '--port', port], {
  cwd: appDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    PYTHONPATH: path.join(appDir, 'local'),
    PYTHONDONTWRITEBYTECODE: '1',
    SEEKFRAME_CLI: process.env.SEEKFRAME_CLI ?? cli,
    SEEKFRAME_VOLUME_PATH: path.join(state, 'volume'),
    MODAL_LOCAL_STATE_DIR: path.join(state, 'state'),
    COMPOSITIONS_DIR: process.env.COMPOSITIONS_DIR ?? path.join(repo, 'compositions'),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal));
child.once('exit', (code) => process.exit(code ?? 0));
