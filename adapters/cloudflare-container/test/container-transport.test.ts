import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { containerTransport, localTransport, type ContainerStub } from '../src/container-transport.js';

/**
 * How a job reaches its renderer. The Container class cannot start here (no containers), so its
 * refusals are checked with the very messages @cloudflare/containers 0.3.7 raises and answers,
 * read from its shipped source (a new wording there fails this test instead of turning 429s into 500s).
 */
async function libraryMessages(): Promise<{ noInstance: string; rateLimited: string; noInstanceResponse: string }> {
  const entry = createRequire(import.meta.url).resolve('@cloudflare/containers');
  const source = await readFile(new URL('lib/container.js', `file://${entry}`), 'utf8');
  const constant = (name: string) => new RegExp(`const ${name} = '([^']+)'`).exec(source)?.[1];
  const noInstanceResponse = /new Response\('(There is no Container instance available[^']*)'/.exec(source)?.[1];
  const noInstance = constant('NO_CONTAINER_INSTANCE_ERROR');
  const rateLimited = constant('RATE_LIMITED_ERROR');
  if (!noInstance || !rateLimited || !noInstanceResponse)
    throw new Error('@cloudflare/containers no longer words its capacity errors the way this test reads them');
  return { noInstance, rateLimited, noInstanceResponse: noInstanceResponse.replace(/\\n/g, '\n') };
}

function stub(behaviour: {
  start?: () => Promise<void>;
  fetch?: (request: Request) => Promise<Response>;
}): ContainerStub & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    startAndWaitForPorts: async () => {
      calls.push('start');
      await behaviour.start?.();
    },
    destroy: async () => {
      calls.push('destroy');
    },
    fetch: async (request: Request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return behaviour.fetch ? behaviour.fetch(request) : new Response('{}', { status: 201 });
    },
  } as ContainerStub & { calls: string[] };
}

describe("containerTransport (the job's own Container instance)", () => {
  it('maps the library\'s "no instance" and rate-limit errors to too-many-renders (429), anything else to container-unavailable', async () => {
    const { noInstance, rateLimited } = await libraryMessages();
    for (const message of [noInstance, rateLimited]) {
      const answer = await containerTransport(stub({ start: () => Promise.reject(new Error(message)) }), 'j1').reserve();
      expect(answer).toMatchObject({ ok: false, error: { code: 'too-many-renders', retryable: true } });
    }
    const other = await containerTransport(stub({ start: () => Promise.reject(new Error('image pull failed')) }), 'j1').reserve();
    expect(other).toMatchObject({ ok: false, error: { code: 'container-unavailable', retryable: true } });
  });

  it('maps the 503 text the library answers when no instance is free to too-many-renders', async () => {
    const { noInstanceResponse } = await libraryMessages();
    const answer = await containerTransport(stub({ fetch: async () => new Response(noInstanceResponse, { status: 503 }) }), 'j2').reserve();
    expect(answer).toMatchObject({ ok: false, error: { code: 'too-many-renders' } });
  });

  it('reserves on the instance, then frees its slot and destroys the instance on release', async () => {
    const container = stub({});
    const transport = containerTransport(container, 'job-9');
    expect(await transport.reserve()).toEqual({ ok: true });
    await transport.release();
    expect(container.calls).toEqual(['start', 'PUT /jobs/job-9', 'DELETE /jobs/job-9', 'destroy']);
  });
});

describe('localTransport (the container server as a host process)', () => {
  let url = '';
  let close: () => void = () => undefined;
  beforeAll(async () => {
    const app = new Hono();
    app.put('/jobs/full', (c) =>
      c.json({ error: { code: 'too-many-renders', message: 'All 1 render slot(s) are busy.', retryable: true } }, 429),
    );
    app.put('/jobs/:id', (c) => c.json({ id: c.req.param('id') }, 201));
    await new Promise<void>((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        url = `http://127.0.0.1:${info.port}`;
        resolve();
      });
      close = () => server.close();
    });
  });
  afterAll(() => close());

  it("passes the server's own error through, and says what to do when nothing listens", async () => {
    expect(await localTransport(url, 'ok').reserve()).toEqual({ ok: true });
    expect(await localTransport(url, 'full').reserve()).toMatchObject({ ok: false, error: { code: 'too-many-renders' } });
    // A port nothing listens on (this server's, after it is closed, would race other tests: use port 9 on loopback).
    const down = await localTransport('http://127.0.0.1:9', 'x').reserve();
    expect(down).toMatchObject({ ok: false, error: { code: 'container-unavailable' } });
    if (!down.ok) expect(down.error.message).toContain('start the local container server first');
  });
});
