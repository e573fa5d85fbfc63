import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig } from 'vitepress';
import { llmsFullTxt, markdownTwins } from '../scripts/markdown-twins.js';
import { DOCS_DIR } from '../scripts/paths.js';
import { renderRecipeClips } from '../scripts/recipe-clips.js';
import { SIDEBAR } from './sidebar.js';

// The recipes' clips are rendered by Seekframe before the site is built (cached by the recipes'
// content), into public/recipes/ where the pages' <video> elements find them.
await renderRecipeClips(path.join(DOCS_DIR, 'public/recipes'), path.join(DOCS_DIR, '.vitepress/cache/recipes'));

// The site builds offline: no web fonts, analytics or search service; search is VitePress' local index.
export default defineConfig({
  title: 'Seekframe',
  description: 'Render HTML compositions to video, frame-exact, in headless Chromium + ffmpeg.',
  lang: 'en',
  outDir: './dist',
  // Not pages: pending feature notes (folded in by hand), the agents' guide source, the build's own code.
  srcExclude: ['pending/**', 'agents/**', 'scripts/**', 'test/**', 'dist/**', 'node_modules/**', 'recipes/*/**'],
  cleanUrls: false,
  // The local search index is one chunk by design (VitePress' own search, loaded when search opens);
  // with the generated references and recipes it passes Vite's 500 kB notice. Other chunks are far smaller.
  vite: { build: { chunkSizeWarningLimit: 800 } },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Deploy', link: '/deploy/templates' },
      { text: 'Reference', link: '/reference/cli' },
    ],
    sidebar: SIDEBAR,
    outline: [2, 3],
    search: { provider: 'local' },
  },
  // Every page also as Markdown beside its HTML (`/guide/studio.md`), and the whole manual in one
  // file (`/llms-full.txt`), for agents and tools that read text (docs/scripts/markdown-twins.ts).
  async buildEnd(site) {
    const twins = await markdownTwins();
    for (const twin of twins) {
      const target = path.join(site.outDir, twin.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, twin.content);
    }
    await writeFile(path.join(site.outDir, 'llms-full.txt'), llmsFullTxt(twins));
  },
});
