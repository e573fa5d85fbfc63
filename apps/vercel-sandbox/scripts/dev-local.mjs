// Runs the template on this machine with one command: a local stand-in for Vercel Blob (the real
// @vercel/blob client talks to it), renders in local sandboxes (child processes running this
// checkout's CLI). `node scripts/dev-local.mjs` = next dev; `--start` = next start (after build).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlobFake } from '@seekframe/vercel-sandbox/testing';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.join(appDir, '../..');
const port = process.env.PORT ?? '3000';
const blob = await startBlobFake();
console.log(`seekframe: local Blob stand-in at ${blob.apiUrl}; renders run in local sandboxes`);
const host = process.env.HOST ?? '127.0.0.1';
const child = spawn('npx', ['next', process.argv.includes('--start') ? 'start' : 'dev', '-p', port, '-H', host], {
  cwd: appDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    SEEKFRAME_SANDBOX: 'local',
    SEEKFRAME_CLI_BIN: process.env.SEEKFRAME_CLI_BIN ?? path.join(repoRoot, 'core/cli/bin/seekframe.js'),
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
