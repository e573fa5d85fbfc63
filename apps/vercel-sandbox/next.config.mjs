import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
/** A package's folder as installed (node_modules of this project, or of the monorepo's root). */
const packageDir = (name) => path.dirname(resolve(`${name}/package.json`));
/** A path Next can use in outputFileTracingIncludes (relative to this app, forward slashes). */
const fromHere = (file) => path.relative(here, file).split(path.sep).join('/');

// The folder whose node_modules holds `next`: this project, or the monorepo root, where npm
// workspaces install everything. File tracing and Turbopack must see the whole of it.
const installRoot = path.dirname(path.dirname(packageDir('next')));

/** @type {import('next').NextConfig} */
const config = {
  // The render API and the SDKs run as plain Node modules from node_modules (not bundled): they read
  // files next to themselves (the in-sandbox upload script, the preview page script, the player).
  serverExternalPackages: [
    '@seekframe/vercel-sandbox',
    '@seekframe/render-api',
    '@seekframe/producer',
    '@seekframe/composition',
    '@seekframe/player',
    '@vercel/sandbox',
    '@vercel/blob',
  ],
  outputFileTracingRoot: installRoot,
  // Files read at run time that the tracer cannot see: the composition and the built assets.
  outputFileTracingIncludes: {
    '/**': [
      './public/compositions/**',
      `${fromHere(path.dirname(resolve('@seekframe/render-api/preview/app.js')))}/**`,
      `${fromHere(path.join(packageDir('@seekframe/player'), 'dist'))}/**`,
      fromHere(resolve('@seekframe/runtime/bundle')),
      `${fromHere(path.join(packageDir('@seekframe/vercel-sandbox'), 'dist/sandbox-scripts'))}/**`,
      // The preview serves fonts and npm libraries from installed packages (the render's rule):
      // the @fontsource faces and GSAP, which the tracer cannot see being read.
      `${fromHere(path.join(installRoot, 'node_modules/@fontsource'))}/*/{package.json,metadata.json,unicode.json}`,
      `${fromHere(path.join(installRoot, 'node_modules/@fontsource'))}/*/files/*.woff2`,
      `${fromHere(packageDir('gsap'))}/{package.json,dist/**}`,
    ],
  },
  turbopack: { root: installRoot },
  // `npm run typecheck` checks the types; the build only bundles.
  typescript: { ignoreBuildErrors: true },
};

export default config;
