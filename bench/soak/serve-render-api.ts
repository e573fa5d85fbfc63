/**
 * The soak's template API: the render API as a template serves it on a laptop (serveLocal: the
 * local-process runner, the in-memory job store, a folder as the object store), in a process of
 * its own so the soak can watch its memory, descriptors and children. Its settings
 * (RENDER_API_TOKEN, RENDER_RETENTION_SECONDS, RENDER_MAX_CONCURRENT) come from the environment
 * only, as a user's would. Prints one JSON line `{"url": ...}` once it listens; exits on SIGTERM.
 *
 *   SOAK_COMPOSITION_DIR=<folder> node --import tsx bench/soak/serve-render-api.ts
 */
import { serveLocal } from '@seekframe/render-api/node';
import { seekframeBin } from 'seekframe/bin-path';

const compositionDir = process.env.SOAK_COMPOSITION_DIR;
if (!compositionDir) throw new Error('SOAK_COMPOSITION_DIR is not set');
const api = await serveLocal({
  compositionDir,
  runner: { cli: { command: process.execPath, args: [seekframeBin] }, workers: 1 },
});
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);
process.once('SIGTERM', () => {
  void api.close().finally(() => process.exit(0));
});
