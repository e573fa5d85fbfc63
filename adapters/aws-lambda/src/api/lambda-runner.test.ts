import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalFolderStorage } from '@seekframe/producer';
import { putJson, renderKeys } from '@seekframe/producer/distributed';
import type { RenderRunner, RunnerJob } from '@seekframe/render-api';
import type { LambdaStore } from '../storage/lambda-store.js';
import { createLambdaRunner } from './lambda-runner.js';

// A DELETE can reach the API while the runner's start still uploads the project (the 202 does not
// wait for it outside Lambda, and another instance may answer the DELETE). Whatever the order of
// the two, a cancelled render's execution must not go on running, and its webhook must hear the
// cancel. Each case below puts the cancel at one point of start.

const ID = 'r-cancel-race';

let work: string;
let store: LambdaStore;
let calls: string[];

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-runner-'));
  store = createLocalFolderStorage({ root: work });
  // The caller uploaded the project, so start does not pack one.
  await store.put(renderKeys(ID).project, new Uint8Array([1]));
  calls = [];
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function job(webhook = true): RunnerJob {
  return {
    id: ID,
    request: { variables: {}, format: 'mp4', ...(webhook ? { webhook: { url: 'https://hooks.example/seekframe' } } : {}) },
    outputKey: `renders/${ID}/output.mp4`,
    contentType: 'video/mp4',
    limits: { maxFrames: Number.MAX_SAFE_INTEGER, maxRenderSeconds: 900, maxPixels: 1920 * 1080 },
  };
}

/** A runner whose workflow calls are recorded in order; `onStartWorkflow` runs inside the start. */
function runner(onStartWorkflow?: (self: RenderRunner) => Promise<void>): RenderRunner {
  const self: RenderRunner = createLambdaRunner({
    store,
    chunking: { chunkCount: 2 },
    chunkTimeoutSeconds: 900,
    async startWorkflow(id) {
      calls.push(`start ${id}`);
      await onStartWorkflow?.(self);
    },
    async stopWorkflow(id) {
      calls.push(`stop ${id}`);
    },
    async notifyCancelled(id) {
      calls.push(`notify ${id}`);
    },
  });
  return self;
}

const context = { emit: () => undefined, signal: new AbortController().signal };

describe('the Lambda runner: a cancel and a start that overlap', () => {
  it('a cancel before the request is stored: start starts no execution and announces the cancel', async () => {
    const lambda = runner();
    await lambda.cancel(ID);
    expect(calls).toEqual([]); // nothing stored yet: nothing to stop, and the webhook is not known here
    await lambda.start(job(), context);
    expect(calls).toEqual([`notify ${ID}`]);
  });

  it('a cancel before the request is stored, without a webhook: no execution and no event', async () => {
    const lambda = runner();
    await lambda.cancel(ID);
    await lambda.start(job(false), context);
    expect(calls).toEqual([]);
  });

  it('a cancel while the execution starts: start stops the execution it started', async () => {
    const lambda = runner(async (self) => {
      await self.cancel(ID);
    });
    await lambda.start(job(), context);
    // The cancel (inside startWorkflow) stops and announces; start then stops it again, which is
    // harmless (StopExecution of a stopped execution), and a late stop is what matters.
    expect(calls[0]).toBe(`start ${ID}`);
    expect(calls.at(-1)).toBe(`stop ${ID}`);
    expect(calls.filter((call) => call === `notify ${ID}`)).toHaveLength(1);
  });

  it('a cancel after start: the execution is stopped and the cancel announced once', async () => {
    const lambda = runner();
    await lambda.start(job(), context);
    await lambda.cancel(ID);
    expect(calls).toEqual([`start ${ID}`, `stop ${ID}`, `notify ${ID}`]);
  });

  it('a cancel of a render that already ended keeps its end: the execution is stopped, nothing is announced', async () => {
    const lambda = runner();
    await lambda.start(job(), context);
    await putJson(store, renderKeys(ID).status, { status: 'completed', finishedAt: new Date().toISOString() });
    await lambda.cancel(ID);
    expect(calls).toEqual([`start ${ID}`, `stop ${ID}`]);
  });
});
