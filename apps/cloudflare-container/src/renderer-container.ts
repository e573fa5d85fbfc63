import { Container } from '@cloudflare/containers';

/**
 * The render container: a Durable Object with a container attached (wrangler.jsonc `containers`).
 * Each render gets its own instance, named after the job (see RenderJobObject), so
 * `max_instances` caps renders at once and a full house is refused with 429, never queued behind
 * one shared instance. The job destroys its instance when the file is in R2; `sleepAfter` is only
 * the safety net for an instance whose job object vanished, and it is longer than the longest
 * render (RENDER_MAX_SECONDS, 900 s by default), because a sleeping instance loses its render.
 *
 * Never constructed in local mode (CONTAINER_LOCAL_URL): with containers disabled its
 * constructor throws.
 */
export class Renderer extends Container {
  override defaultPort = 8080;
  override sleepAfter = '20m';
  // Compositions may load public fonts and images; the renderer itself confines the page
  // (sandboxed network: no loopback, private or link-local addresses).
  override enableInternet = true;
}
