import { after } from 'next/server';
import { statusOf } from '@seekframe/render-api';
import { createVercelRenderApi } from '@seekframe/vercel-sandbox';
import { SeekframeError } from '@seekframe/composition';
import { previewCompositionDir } from './preview';

type RenderApp = ReturnType<typeof createVercelRenderApi>;
let app: RenderApp | undefined;

/** One render API per function instance, built on first use from the environment. */
function renderApp(): RenderApp {
  // Settings from process.env (createVercelRenderApi's default); a bad one answers every route
  // below with its error (the build step refused it already: scripts/create-snapshot.ts).
  app ??= createVercelRenderApi({
    compositionDir: previewCompositionDir(),
    // Async renders (Prefer: respond-async) go on after the response, up to maxDuration.
    waitUntil: (promise) => {
      try {
        after(promise);
      } catch {
        // Outside a request scope (a script, a direct call in a test) the promise simply runs on.
      }
    },
  });
  return app;
}

/** Every route handler of the template: the shared Hono app answers the request as it is. */
export async function handle(request: Request): Promise<Response> {
  try {
    return await renderApp().fetch(request);
  } catch (error) {
    // Configuration errors (no Blob token...) as the contract's error shape, not an HTML 500 page.
    const failure =
      error instanceof SeekframeError
        ? error
        : new SeekframeError('internal-error', error instanceof Error ? error.message : String(error), { stage: 'config' });
    return Response.json({ error: failure.toJSON() }, { status: statusOf(failure.code) });
  }
}
