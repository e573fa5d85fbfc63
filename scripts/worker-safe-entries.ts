/**
 * The package entries meant to run where Node is absent (a Cloudflare Worker, a browser). One list
 * for the whole repository: worker-safe-entries.test.ts bundles each for the browser platform and
 * finds no Node module in its graph; dependency-rules.test.ts lets Worker-safe code import them.
 */
export const WORKER_SAFE_ENTRIES = [
  '@seekframe/producer/composition-files',
  '@seekframe/producer/http',
  '@seekframe/producer/storage-port',
  '@seekframe/producer/webhooks',
  '@seekframe/render-api',
  '@seekframe/render-api/webhooks',
] as const;
