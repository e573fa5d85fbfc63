import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_MEMORY_PER_BROWSER_MB,
  RENDER_LIMIT_SETTINGS,
  SERVER_RENDER_LIMITS,
  type RenderLimitName,
} from '@seekframe/producer/limits';
import { SERVER_SETTINGS } from '@seekframe/producer/server-settings';
import type { GeneratedFile } from './generated-files.js';
import { cell } from './markdown-table.js';
import { DOCS_DIR } from './paths.js';

/** What each render limit does, for the settings table (its flag and variable come from RENDER_LIMIT_SETTINGS). */
const LIMIT_MEANINGS: Record<RenderLimitName, string> = {
  maxFrames: 'frames one render may have ([Limits](./security.md#limits-per-render))',
  maxRenderSeconds: 'wall time of one render, then `render-timeout`',
  maxWorkers: 'browsers one request may ask for; `auto` is capped to it',
  maxPixels: 'pixels per frame (width x height)',
  maxMemoryMB: 'memory the browsers of one render may hold together, in MB, then `memory-limit-exceeded`',
};

function limitDefault(name: RenderLimitName): string {
  if (name === 'maxMemoryMB') return `${DEFAULT_MEMORY_PER_BROWSER_MB} per browser of the render`;
  if (name === 'maxPixels') return `${SERVER_RENDER_LIMITS.maxPixels} (3840x2160)`;
  return String(SERVER_RENDER_LIMITS[name]);
}

const code = (text: string | undefined): string => (text ? `\`${text}\`` : '—');
/** Plain text for a cell: `<root>` and `<token>` must not read as HTML tags (VitePress compiles pages as Vue templates). */
const text = (value: string): string => cell(value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));

/** The settings table of `seekframe serve` / `createProducerServer`, from the server's own tables. */
export function serveSettingsTable(): string {
  const rows = [
    ...SERVER_SETTINGS.map((setting) => [
      code(setting.flag),
      code(setting.env),
      code(setting.option),
      text(setting.default),
      text(setting.meaning),
    ]),
    ...(Object.keys(RENDER_LIMIT_SETTINGS) as RenderLimitName[]).map((name) => [
      code(`${RENDER_LIMIT_SETTINGS[name].flag} <${name === 'maxMemoryMB' ? 'MB' : 'n'}>`),
      code(RENDER_LIMIT_SETTINGS[name].env),
      code(`limits.${name}`),
      text(limitDefault(name)),
      LIMIT_MEANINGS[name],
    ]),
  ];
  return [
    '| flag | variable | option of `createProducerServer` | default | what it does |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

const START = '<!-- generated: serve settings (docs/scripts/serve-settings-table.ts) -->';
const END = '<!-- /generated -->';

/** docs/guide/render-server.md with its settings table made anew between the markers. */
export async function renderServerPage(): Promise<GeneratedFile> {
  const file = path.join(DOCS_DIR, 'guide/render-server.md');
  const text = await readFile(file, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END, from);
  if (from < 0 || to < 0) throw new Error(`docs/guide/render-server.md has no "${START}" ... "${END}" region for the settings table`);
  return {
    path: 'docs/guide/render-server.md',
    content: `${text.slice(0, from + START.length)}\n${serveSettingsTable()}\n${text.slice(to)}`,
  };
}
