// `npm run dev`: the template on this machine with one command. A local stand-in for Vercel Blob
// (the real @vercel/blob client talks to it) and renders in local sandboxes (child processes
// running the installed seekframe CLI, which needs Chromium and ffmpeg). Serves on
// 127.0.0.1:$PORT (3000). `node scripts/dev-local.mjs` = next dev; `--start` = next start (after
// `next build`). With real Vercel credentials (`vercel env pull`), `npm run dev:vercel` instead.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlobFake } from '@seekframe/vercel-sandbox/testing';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const cliBin = path.join(path.dirname(require.resolve('seekframe/package.json')), 'bin/seekframe.js');
const nextBin = path.join(path.dirname(require.resolve('next/package.json')), 'dist/bin/next');
const port = process.env.PORT ?? '3000';
const blob = await startBlobFake();
console.log(`seekframe: local Blob stand-in at ${blob.apiUrl}; renders run in local sandboxes`);
const host = process.env.HOST ?? '127.0.0.1';
const child = spawn(process.execPath, [nextBin, process.argv.includes('--start') ? 'start' : 'dev', '-p', port, '-H', host], {
  cwd: appDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    SEEKFRAME_SANDBOX: 'local',
    SEEKFRAME_CLI_BIN: process.env.SEEKFRAME_CLI_BIN ?? cliBin,
    BLOB_READ_WRITE_TOKEN: blob.token,
    VERCEL_BLOB_API_URL: blob.apiUrl,
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', async (code) => {
  await blob.close();
  process.exit(code ?? 0);
});
