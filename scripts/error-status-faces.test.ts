import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_HTTP_STATUS, SeekframeError, type ErrorCode } from '@seekframe/composition';
import { createLocalFolderStorage, resolveServerConfig } from '@seekframe/producer';
import { createMemoryJobStore, createRenderApi } from '@seekframe/render-api';
import { createLambdaApiApp, type LambdaStore } from '@seekframe/aws-lambda';
// The faces whose app factory is not part of a package's public API, by path (a test, not a package).
import { createProducerApp } from '../core/producer/src/server/producer-app.js';
import { OutputStore } from '../core/producer/src/server/output-store.js';
import { createRenderServerApp } from '../apps/cloudflare-container/container/render-server.js';

/**
 * Every error code through every HTTP face: each face is built as it runs in production and made
 * to fail with one code at a point where a real failure would arise (a composition that cannot
 * be read, a storage read, an output lookup). Each must answer ERROR_HTTP_STATUS[code] with the
 * one body shape, `{error: {code, message, stage?, retryable, details?}}`, carrying the error as
 * it was raised. The Python face (apps/modal-function) reads the same table from its dist/ and is
 * checked in its own test.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seekframe-error-faces-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const errorOf = (code: ErrorCode): SeekframeError =>
  new SeekframeError(code, `A ${code} raised on purpose.`, { stage: 'config', retryable: code === 'too-many-renders', details: { code } });

const refuseRunner = {
  start: () => Promise.reject(new Error('no render in this test')),
  cancel: async () => undefined,
};

/** Each face and the request that makes it raise `code`. */
const FACES: Record<string, (code: ErrorCode) => Promise<Response>> = {
  'render-api (every template)': (code) => {
    const app = createRenderApi({
      runner: refuseRunner,
      jobs: createMemoryJobStore(),
      objects: createLocalFolderStorage({ root: path.join(dir, 'render-api') }),
      composition: {
        read: async () => {
          throw errorOf(code);
        },
      },
      answerMode: 'sync',
    });
    return Promise.resolve(app.request('/api/composition'));
  },
  'producer server': async (code) => {
    const config = resolveServerConfig({ root: dir, outputsDir: path.join(dir, 'outputs'), env: {} });
    const outputs = new OutputStore(config.outputsDir);
    outputs.find = async () => {
      throw errorOf(code);
    };
    const app = createProducerApp(config, outputs, { jobs: null as never, isClosing: () => false });
    return app.request('/outputs/some-token');
  },
  'Lambda API (render-api over the Lambda runner)': async (code) => {
    // The job record's read (renders/<id>/job.json) fails.
    const store = {
      get: async () => {
        throw errorOf(code);
      },
    } as unknown as LambdaStore;
    const app = createLambdaApiApp({
      store,
      startWorkflow: async () => undefined,
      chunking: {},
      chunkTimeoutSeconds: 60,
      compositionDir: dir,
    });
    return app.request('/api/render/render-0001');
  },
  'render container (Cloudflare)': async (code) => {
    const server = createRenderServerApp({
      compositionDir: dir,
      workDir: path.join(dir, 'container'),
      maxConcurrent: 1,
      limits: { maxFrames: 10, maxRenderSeconds: 10, maxWorkers: 1, maxPixels: 100 },
      workers: 1,
    });
    // Its routes raise only a few codes themselves; this route raises the rest through the same
    // middleware and error handler as its own.
    (server.app as Hono).get('/jobs/:id/raise', () => {
      throw errorOf(code);
    });
    return server.app.request('/jobs/job-1/raise');
  },
};

describe('one error code -> HTTP status table behind every HTTP face', () => {
  it('gives every code a status (the table is total, checked by tsc too)', () => {
    expect(Object.keys(ERROR_HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  for (const [face, request] of Object.entries(FACES)) {
    it(`${face}: answers each code with its status and the one body shape`, async () => {
      const seen: Record<string, number> = {};
      for (const code of ERROR_CODES) {
        const response = await request(code);
        seen[code] = response.status;
        const body = (await response.json()) as { error: Record<string, unknown> };
        expect(body, `${face} ${code}`).toEqual({ error: errorOf(code).toJSON() });
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('x-request-id'), `${face} ${code}: request id`).toMatch(/^[A-Za-z0-9._:-]+$/);
        if (code === 'too-many-renders') expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        if (code === 'unauthorized') expect(response.headers.get('www-authenticate')).toBe('Bearer');
      }
      expect(seen).toEqual(ERROR_HTTP_STATUS);
    });
  }
});
