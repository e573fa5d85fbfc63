import { createCloudflareRenderApi, type CloudflareRenderEnv } from '@seekframe/cloudflare-container';
import { composition, preview } from 'seekframe:bundled-assets';
import { bundledFileSource } from './bundled-files.js';
import { preparedCompositionFiles } from './prepared-composition-files.js';

// The Durable Object classes wrangler.jsonc binds: job records and drivers, and the Container.
export { RenderJobObject } from '@seekframe/cloudflare-container';
export { Renderer } from './renderer-container.js';

const compositionSource = bundledFileSource(composition);
const previewAssets = bundledFileSource(preview);

/** wrangler.jsonc's bindings: the render API's, and the static assets the build prepared. */
type Env = CloudflareRenderEnv & { ASSETS: Fetcher };

export default {
  fetch(request, env, ctx) {
    return createCloudflareRenderApi({
      env,
      waitUntil: (promise) => ctx.waitUntil(promise),
      composition: compositionSource,
      previewAssets,
      compositionFiles: preparedCompositionFiles(env.ASSETS),
    }).fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
