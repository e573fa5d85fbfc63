/**
 * Runs INSIDE the sandbox, one per render (bundled with @vercel/blob into one file by
 * scripts/build-sandbox-scripts.mjs): runs `seekframe render --json`, passes every line through
 * to its own stdout (the function streams them as the job's progress), keeps the latest progress
 * in progress.json, uploads the finished file to Blob itself (the video never passes through the
 * function) and writes result.json. Because the sandbox does all of it, a render outlives the
 * function that started it: any later status request reads result.json or progress.json.
 *
 * Usage: node run-job.mjs <spec.json>; spec = JobSpec below.
 * Environment: BLOB_READ_WRITE_TOKEN, BLOB_ACCESS (public | private), VERCEL_BLOB_API_URL (tests).
 */
import { put } from '@vercel/blob';
import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { JobResult, JobSpec } from '../runner/job-protocol.js';

function writeJson(file: string, value: unknown): void {
  // Written aside then renamed: a reader never sees half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

async function main(): Promise<number> {
  const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as JobSpec;
  const progressFile = path.join(spec.dir, 'progress.json');
  const resultFile = path.join(spec.dir, 'result.json');
  const finish = (result: JobResult): number => {
    writeJson(resultFile, result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.status === 'completed' ? 0 : 1;
  };

  const child = spawn(spec.cmd, spec.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
  let lastError: Extract<JobResult, { type: 'failed' }>['error'] | undefined;
  let complete: { durationMs: number } | undefined;
  // progress.json is the job's latest state: the last progress event, its stage kept current by
  // later stage events, so a reader sees the frame counts from the first progress on.
  let state: { type: string; stage?: string } | undefined;
  let lastProgressWrite = 0;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    process.stdout.write(`${line}\n`);
    let event: { type?: string; stage?: string; error?: typeof lastError; durationMs?: number } | undefined;
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    if (event?.type === 'error' && event.error) lastError = event.error;
    if (event?.type === 'complete') complete = { durationMs: event.durationMs ?? 0 };
    if (event?.type === 'stage') {
      state = state?.type === 'progress' ? { ...state, stage: event.stage } : (event as { type: string });
      writeJson(progressFile, state);
    }
    if (event?.type === 'progress') {
      const first = state?.type !== 'progress';
      state = event as { type: string };
      // At most once a second: a write per frame would cost more than it tells.
      if (first || Date.now() - lastProgressWrite >= 1000) {
        lastProgressWrite = Date.now();
        writeJson(progressFile, state);
      }
    }
  });
  const code = await new Promise<number>((resolve) => {
    child.on('error', (error) => {
      lastError ??= { code: 'render-failed', message: `could not start ${spec.cmd}: ${error.message}`, retryable: false };
      resolve(127);
    });
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0 || !complete) {
    return finish({
      type: 'failed',
      status: 'failed',
      error: lastError ?? {
        code: 'render-failed',
        message: `seekframe render exited with ${code} without a result`,
        stage: 'capture',
        retryable: true,
      },
    });
  }

  const token = process.env.BLOB_READ_WRITE_TOKEN;
  try {
    if (!token) throw new Error('BLOB_READ_WRITE_TOKEN is not set in the sandbox');
    const { size } = statSync(spec.output);
    const uploaded = await put(spec.outputKey, createReadStream(spec.output), {
      access: process.env.BLOB_ACCESS === 'private' ? 'private' : 'public',
      token,
      contentType: spec.contentType,
      addRandomSuffix: false,
      allowOverwrite: true,
      // Parts of 8 MiB go up in parallel; a long render's file does not have to fit one request.
      multipart: true,
    });
    return finish({
      type: 'uploaded',
      status: 'completed',
      key: uploaded.pathname,
      url: uploaded.url,
      size,
      contentType: spec.contentType,
      durationMs: complete.durationMs,
    });
  } catch (error) {
    return finish({
      type: 'failed',
      status: 'failed',
      error: {
        code: 'output-write-failed',
        message: `Uploading ${spec.output} to Blob as ${spec.outputKey} failed: ${error instanceof Error ? error.message : String(error)}. Check BLOB_READ_WRITE_TOKEN and the project's Blob store.`,
        stage: 'output',
        retryable: true,
      },
    });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`run-job: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
