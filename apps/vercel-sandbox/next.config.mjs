import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.join(here, '../..');

/** @type {import('next').NextConfig} */
const config = {
  // The render API and the SDKs run as plain Node modules from node_modules (not bundled): they read
  // files next to themselves (the in-sandbox upload script, the preview page script, the player).
  serverExternalPackages: ['@seekframe/vercel-sandbox', '@seekframe/render-api', '@seekframe/producer', '@seekframe/composition', '@seekframe/player', '@vercel/sandbox', '@vercel/blob'],
  outputFileTracingRoot: repoRoot,
  // Files read at run time that the tracer cannot see: the composition and the built assets.
  outputFileTracingIncludes: {
    '/**': [
      './public/compositions/**',
      '../../adapters/render-api/dist/preview/**',
      '../../core/player/dist/**',
      '../../core/runtime/dist/seekframe-runtime.js',
      '../../adapters/vercel-sandbox/dist/sandbox-scripts/**',
      // The preview serves fonts and npm libraries from installed packages (the render's rule):
      // the @fontsource faces and GSAP, which the tracer cannot see being read.
      '../../node_modules/@fontsource/*/{package.json,metadata.json,unicode.json}',
      '../../node_modules/@fontsource/*/files/*.woff2',
      '../../node_modules/gsap/{package.json,dist/**}',
    ],
  },
  turbopack: { root: repoRoot },
  // `npm run typecheck` checks the types (against the workspace sources); the build only bundles.
  typescript: { ignoreBuildErrors: true },
};

export default config;
