// `@seekframe/producer/composition-files`: the one rule for a composition's files, platform-neutral
// (no `node:` import in this graph): it loads in a Worker and in a browser bundle too.
export { createCompositionFiles, notLocal, type CompositionFiles, type CompositionFilesOptions } from './serve-composition-file.js';
export { compositionRoutes, remoteUrl, ROOT_ROUTES, type CompositionRoutes } from './composition-routes.js';
export { resolveRemote, type RemoteAnswer } from './resolve-remote.js';
export type { CompositionHost, FetchedFile, FindFont, FontFaces, FontFile, ProjectFile } from './composition-host.js';
export { createRuntimeInjector, type PrepareHtml, type RuntimeInjectorOptions } from '../create-runtime-injector.js';
export { createExportedFiles, type ExportedFile, type ExportedFilesManifest } from './serve-exported-files.js';
