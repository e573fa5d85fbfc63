// Cloudflare pieces of the render API. Worker-only (imports `cloudflare:workers`); the protocol
// spoken with the container's server is also exported alone as `./protocol` for Node.
export { createCloudflareRenderApi, type CloudflareRenderApiOptions, type CloudflareRenderEnv } from './create-cloudflare-render-api.js';
export { RenderJobObject, activeJobsObject, type RenderJobEnv, type StartAnswer } from './render-job-object.js';
export { createDurableJobStore, jobObject, type DurableJobStoreOptions } from './durable-job-store.js';
export { createContainerRunner } from './container-runner.js';
export { createR2ObjectStore, r2ObjectUrl, putKnownLength, type R2ObjectStoreOptions } from './r2-object-store.js';
export { serveR2Object, parseRange } from './serve-r2-object.js';
export { containerTransport, localTransport, type ContainerStub, type ContainerTransport } from './container-transport.js';
export * from './container-protocol.js';
