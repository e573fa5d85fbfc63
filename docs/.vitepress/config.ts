import { defineConfig } from 'vitepress';
import { SIDEBAR } from './sidebar.js';

// The site builds offline: no web fonts, analytics or search service; search is VitePress' local index.
export default defineConfig({
  title: 'Seekframe',
  description: 'Render HTML compositions to video, frame-exact, in headless Chromium + ffmpeg.',
  lang: 'en',
  outDir: './dist',
  // Not pages: pending feature notes (folded in by hand), the agents' guide source, the build's own code.
  srcExclude: ['pending/**', 'agents/**', 'scripts/**', 'test/**', 'dist/**', 'node_modules/**'],
  cleanUrls: false,
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
});
