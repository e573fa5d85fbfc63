/**
 * The manual's table of contents: the one place that lists its pages. The sidebar, the top bar
 * and llms.txt (docs/scripts/agent-files.ts) are all built from it, so a new page is one line here.
 *
 * To add a page: write docs/<section>/<slug>.md with `title` and `description` front matter, then
 * add `{ text, link: '/<section>/<slug>' }` to its group. A feature's pending notes
 * (docs/pending/<issue>-*.md) become a page this way when the lead folds them in.
 */
export interface SidebarItem {
  text: string;
  link: string;
}

export interface SidebarGroup {
  text: string;
  items: SidebarItem[];
}

export const SIDEBAR: SidebarGroup[] = [
  {
    text: 'Start',
    items: [{ text: 'Getting started', link: '/guide/getting-started' }],
  },
  {
    text: 'Write a composition',
    items: [
      { text: 'The composition format', link: '/guide/composition-format' },
      { text: 'Variables', link: '/guide/variables' },
      { text: 'Animation', link: '/guide/animation' },
      { text: 'Fonts', link: '/guide/fonts' },
      { text: 'Colour grading', link: '/guide/colour-grading' },
      { text: 'Media: video, audio, HDR', link: '/guide/media' },
      { text: 'HyperFrames compatibility', link: '/guide/hyperframes' },
      { text: 'Checking a composition', link: '/guide/checking' },
      { text: 'Captions', link: '/guide/captions' },
    ],
  },
  {
    text: 'Render',
    items: [
      { text: 'Output formats and quality', link: '/guide/output-formats' },
      { text: 'Batch rendering', link: '/guide/batch-rendering' },
      { text: 'The render server', link: '/guide/render-server' },
      { text: 'The preview studio', link: '/guide/studio' },
      { text: 'The player element', link: '/guide/player' },
      { text: 'The player in your own app', link: '/guide/player-in-your-app' },
      { text: 'Performance and benchmark', link: '/guide/performance' },
    ],
  },
  {
    text: 'Recipes',
    items: [
      { text: 'Captions from word times', link: '/recipes/captions-from-word-times' },
      { text: 'A chart from JSON data', link: '/recipes/chart-from-json' },
      { text: 'A batch from a CSV file', link: '/recipes/batch-from-csv' },
      { text: 'A transparent overlay', link: '/recipes/transparent-overlay' },
      { text: 'Video with audio', link: '/recipes/video-with-audio' },
      { text: 'Drawing on a canvas', link: '/recipes/canvas-drawing' },
    ],
  },
  {
    text: 'Deploy',
    items: [
      { text: 'Deploy templates', link: '/deploy/templates' },
      { text: 'Modal', link: '/deploy/modal' },
      { text: 'Vercel', link: '/deploy/vercel' },
      { text: 'Cloudflare', link: '/deploy/cloudflare' },
      { text: 'Rendering on AWS Lambda', link: '/deploy/aws-lambda' },
      { text: 'Render on your own machines', link: '/deploy/fleet' },
      { text: 'Render in Docker', link: '/deploy/docker' },
      { text: 'Webhooks', link: '/deploy/webhooks' },
    ],
  },
  {
    text: 'Operate',
    items: [
      { text: 'Security model', link: '/guide/security' },
      { text: 'Troubleshooting', link: '/guide/troubleshooting' },
    ],
  },
  {
    text: 'Reference (generated)',
    items: [
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Error codes', link: '/reference/errors' },
      { text: 'Composition attributes', link: '/reference/attributes' },
      { text: 'Lint rules', link: '/reference/lint-rules' },
      { text: 'Variable declarations', link: '/reference/variables' },
      { text: 'JSON output', link: '/reference/json-output' },
      { text: 'Render API (OpenAPI)', link: '/reference/render-api' },
      { text: 'API: rendering from Node', link: '/reference/api/render-from-node' },
      { text: 'API: the producer server', link: '/reference/api/producer-server' },
      { text: 'API: the render API', link: '/reference/api/render-api' },
      { text: 'API: the Lambda client', link: '/reference/api/lambda-client' },
      { text: 'API: webhooks', link: '/reference/api/webhooks' },
      { text: 'API: the player element', link: '/reference/api/player' },
    ],
  },
  {
    text: 'Contributing',
    items: [
      { text: 'Architecture', link: '/contributing/architecture' },
      { text: 'Working in the repository', link: '/contributing/repository' },
      { text: 'The test suite', link: '/contributing/tests' },
    ],
  },
];
