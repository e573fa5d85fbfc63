/**
 * Runs INSIDE the sandbox (bundled with @vercel/blob into one file by
 * scripts/build-sandbox-scripts.mjs): uploads the rendered file to Blob, so the video never passes
 * through the function. Usage: node upload-blob.mjs <file> <pathname> <content-type>
 * Environment: BLOB_READ_WRITE_TOKEN, BLOB_ACCESS (public | private), VERCEL_BLOB_API_URL (tests).
 * Prints one JSON line: {"type":"uploaded","key","url","size"}; exits 1 with a message on failure.
 */
import { put } from '@vercel/blob';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

async function main(): Promise<void> {
  const [file, pathname, contentType] = process.argv.slice(2);
  const token = process.env.BLOB_READ_WRITE_TOKEN;
  if (!file || !pathname || !contentType) throw new Error('usage: upload-blob.mjs <file> <pathname> <content-type>');
  if (!token) throw new Error('BLOB_READ_WRITE_TOKEN is not set in the sandbox');
  const access = process.env.BLOB_ACCESS === 'private' ? 'private' : 'public';
  const { size } = await stat(file);
  const result = await put(pathname, createReadStream(file), {
    access,
    token,
    contentType,
    addRandomSuffix: false,
    allowOverwrite: true,
    // Parts of 8 MiB go up in parallel; a long render's file does not have to fit one request.
    multipart: true,
  });
  process.stdout.write(`${JSON.stringify({ type: 'uploaded', key: result.pathname, url: result.url, size })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`upload-blob: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
