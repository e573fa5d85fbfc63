/**
 * Light entry point (`@seekframe/producer/project-files`): locating and reading a project on disk
 * without loading the render pipeline (puppeteer, hono), so `seekframe lint` and `preview` start fast.
 */
export { readProjectFile } from './read-project-file.js';
export { listProjectHtmlFiles } from './list-project-html.js';
export { findMissingCdnPackages } from './project-cdn-packages.js';
export { resolveProject, type ProjectLocation } from './resolve-project.js';
export { displayPath } from './display-path.js';
export { fontPackageCheck } from './fonts/font-package-check.js';
export { BUNDLED_FONT_PACKAGES } from './fonts/bundled-font-packages.js';
export { preflightHost, type PreflightHostOptions } from './preflight-host.js';
