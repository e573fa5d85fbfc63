import type { Container } from '@cloudflare/containers';
import type { SeekframeErrorData } from '@seekframe/composition';
import { containerPaths } from './container-protocol.js';

/**
 * How a job's Durable Object reaches the renderer for that job.
 *
 * - `container`: the job's own Container instance, named after the job id (one render per
 *   instance, so `max_instances` caps how many run at once; never one shared singleton).
 * - `local`: the container's server running as a plain Node process on the host
 *   (`CONTAINER_LOCAL_URL`). The Container class is never constructed: with containers
 *   disabled (Miniflare, `wrangler dev --enable-containers=false`) its constructor throws.
 */
export interface ContainerTransport {
  /** Makes sure a renderer is there for this job; refuses with `too-many-renders` at capacity. */
  reserve(): Promise<{ ok: true } | { ok: false; error: SeekframeErrorData }>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Frees the job's renderer: its file, its slot, and (on Cloudflare) the instance itself. */
  release(): Promise<void>;
}

const capacityError = (detail: string): SeekframeErrorData => ({
  code: 'too-many-renders',
  message: `No render container is free right now (${detail}); try again shortly, or raise max_instances in wrangler.jsonc.`,
  retryable: true,
});

const unavailableError = (detail: string): SeekframeErrorData => ({
  code: 'container-unavailable',
  message: `The render container could not be started: ${detail}. Check the container's logs (npx wrangler containers list / the dashboard) and try again.`,
  stage: 'browser',
  retryable: true,
});

/** Errors @cloudflare/containers raises (or answers with) when no instance can be had. */
const NO_CAPACITY =
  /no container instance|there is no container instance available|too many containers per second|max(imum)? concurrent instance/i;

/** Reads a renderer's `{error}` answer; anything else becomes `fallback`. */
async function errorFrom(response: Response, fallback: SeekframeErrorData): Promise<SeekframeErrorData> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: SeekframeErrorData };
    if (parsed.error && typeof parsed.error.code === 'string') return parsed.error;
  } catch {
    // not JSON: @cloudflare/containers answers plain text
  }
  if (NO_CAPACITY.test(text) || response.status === 429) return capacityError(text.split('\n')[0] || `HTTP ${response.status}`);
  return { ...fallback, message: `${fallback.message} (HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''})` };
}

export function localTransport(baseUrl: string, jobId: string): ContainerTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async reserve() {
      let response: Response;
      try {
        response = await fetch(`${base}${containerPaths.job(jobId)}`, { method: 'PUT' });
      } catch (error) {
        return {
          ok: false,
          error: unavailableError(
            `CONTAINER_LOCAL_URL ${base} did not answer (${error instanceof Error ? error.message : String(error)}); start the local container server first`,
          ),
        };
      }
      if (response.ok) {
        await response.body?.cancel();
        return { ok: true };
      }
      return { ok: false, error: await errorFrom(response, unavailableError(`the local renderer at ${base} refused the job`)) };
    },
    fetch: (path, init) => fetch(`${base}${path}`, init),
    async release() {
      await fetch(`${base}${containerPaths.job(jobId)}`, { method: 'DELETE' })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    },
  };
}

/** The subset of a Container stub this transport calls (RPC methods of @cloudflare/containers). */
export type ContainerStub = Pick<Container, 'startAndWaitForPorts' | 'destroy'> & { fetch(request: Request): Promise<Response> };

export function containerTransport(stub: ContainerStub, jobId: string): ContainerTransport {
  // The container only sees its own path; the host part of the URL is ignored by containerFetch.
  const url = (path: string) => `http://renderer${path}`;
  return {
    async reserve() {
      try {
        await stub.startAndWaitForPorts();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: NO_CAPACITY.test(message) ? capacityError(message) : unavailableError(message) };
      }
      const response = await stub.fetch(new Request(url(containerPaths.job(jobId)), { method: 'PUT' }));
      if (response.ok) {
        await response.body?.cancel();
        return { ok: true };
      }
      return { ok: false, error: await errorFrom(response, unavailableError('the container refused the job')) };
    },
    fetch: (path, init) => stub.fetch(new Request(url(path), init)),
    async release() {
      await stub
        .fetch(new Request(url(containerPaths.job(jobId)), { method: 'DELETE' }))
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
      // One render per instance: stop it now rather than after sleepAfter, so the slot under
      // max_instances is free for the next job at once.
      await stub.destroy().catch(() => undefined);
    },
  };
}
