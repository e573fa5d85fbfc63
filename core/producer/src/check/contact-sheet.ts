import { copyFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { runFfmpeg } from './run-ffmpeg.js';
import { resolvePackageAsset } from '../assets/resolve-package-asset.js';
import type { CheckFinding, CheckReport } from './check-report.js';

/** Width of one frame on the sheet; its height follows the composition's aspect. */
const TILE_WIDTH = 480;
/** Frames on one sheet at most: those where findings are, then others spread over the video. */
export const MAX_TILES = 12;
const COLUMNS = 3;
const LINE_HEIGHT = 20;
/** Finding lines under one frame at most (then "…and N more"). */
const MAX_TILE_LINES = 5;
const FOOTER_LINES = 14;
const COLOURS = { error: '0xE5322D', warning: '0xF2A900' } as const;

export interface ContactSheetInput {
  report: Omit<CheckReport, 'snapshot'>;
  /** The sampled frames (PNG file names in `dir`), by time. */
  frames: ReadonlyMap<number, string>;
  /** The folder of the frames; the labels and the font are put there too (the caller removes it). */
  dir: string;
  size: { width: number; height: number };
  /** Where to write the PNG. */
  output: string;
  ffmpeg: string;
  signal?: AbortSignal;
}

/**
 * The contact sheet of a check: the sampled frames with a finding (and others, up to 12), each
 * finding's region outlined in its colour (red errors, amber warnings) and numbered, the numbers
 * and rules written under the frame; findings that are not somewhere in a frame (lint, page,
 * audio) listed at the bottom. Composed by one ffmpeg run (scale, drawbox, drawtext, tile) with a
 * font Seekframe ships, so it looks the same on every machine.
 */
export async function writeContactSheet(input: ContactSheetInput): Promise<string> {
  const { report, size } = input;
  const numbered = report.findings.map((finding, i) => ({ finding, n: i + 1 }));
  const times = chooseTiles(
    [...input.frames.keys()],
    numbered.flatMap(({ finding }) => (finding.region ? [finding.region.time] : [])),
  );
  if (times.length === 0) throw new SeekframeError('invalid-options', 'The check sampled no frame, so there is no contact sheet to write.');
  const scale = TILE_WIDTH / size.width;
  const tileHeight = Math.max(2, Math.round((size.height * scale) / 2) * 2);
  const perTile = times.map((t) => numbered.filter(({ finding }) => finding.region?.time === t));
  const lines = Math.min(MAX_TILE_LINES + 1, Math.max(0, ...perTile.map((list) => list.length)));
  const strip = LINE_HEIGHT * (lines + 1) + 8;
  // ffmpeg runs in `dir` and every file is named relative to it: no path needs filter-graph escaping.
  const font = 'font.woff';
  await copyFile(
    resolvePackageAsset('@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff', {
      build: 'npm install',
      what: 'the contact sheet font',
    }),
    path.join(input.dir, font),
  );
  const text = async (name: string, content: string): Promise<string> => {
    await writeFile(path.join(input.dir, name), content);
    return name;
  };

  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  const graph: string[] = [];
  for (const [i, t] of times.entries()) {
    args.push('-protocol_whitelist', 'file', '-i', input.frames.get(t)!);
    const filters = [`scale=${TILE_WIDTH}:${tileHeight}`, 'format=rgb24'];
    for (const { finding, n } of perTile[i]!) {
      const box = placeBox(finding.region!, scale, TILE_WIDTH, tileHeight);
      const colour = COLOURS[finding.severity];
      filters.push(`drawbox=x=${box.x}:y=${box.y}:w=${box.width}:h=${box.height}:color=${colour}:t=3`);
      // The number inside the tile even when the box is a strip at its edge (a region outside the frame).
      const label = { x: Math.min(box.x + 4, TILE_WIDTH - 22), y: Math.min(box.y + 4, tileHeight - 22) };
      filters.push(
        `drawtext=fontfile=${font}:text=${n}:expansion=none:x=${label.x}:y=${label.y}:fontsize=15:fontcolor=white:box=1:boxcolor=${colour}:boxborderw=3`,
      );
    }
    filters.push(`pad=${TILE_WIDTH}:${tileHeight + strip}:0:0:white`);
    const list = perTile[i]!;
    const caption = [
      `${t.toFixed(2)} s`,
      ...list.slice(0, MAX_TILE_LINES).map(({ finding, n }) => `${n}  ${finding.code}  ${where(finding)}`),
      ...(list.length > MAX_TILE_LINES ? [`…and ${list.length - MAX_TILE_LINES} more`] : []),
    ];
    filters.push(
      `drawtext=fontfile=${font}:textfile=${await text(`tile-${i}.txt`, fit(caption, 58).join('\n'))}:expansion=none:x=6:y=${tileHeight + 6}:fontsize=14:line_spacing=${LINE_HEIGHT - 14}:fontcolor=0x222222`,
    );
    graph.push(`[${i}:v]${filters.join(',')}[t${i}]`);
  }
  const columns = Math.min(COLUMNS, times.length);
  const rows = Math.ceil(times.length / columns);
  graph.push(
    `${times.map((_, i) => `[t${i}]`).join('')}concat=n=${times.length}:v=1:a=0,tile=${columns}x${rows}:margin=12:padding=12:color=0xF4F4F4[grid]`,
  );

  const elsewhere = numbered.filter(({ finding }) => !finding.region || !times.includes(finding.region.time));
  const footer = [
    `seekframe check ${report.entry} (${report.format}): ${count(report.summary.errors, 'error')}, ${count(report.summary.warnings, 'warning')}; ${count(report.sampledTimes.length, 'frame')} sampled`,
    ...elsewhere
      .slice(0, FOOTER_LINES)
      .map(({ finding, n }) => `${n}  ${finding.severity}  ${finding.code}  ${where(finding)}  ${finding.message}`),
    ...(elsewhere.length > FOOTER_LINES ? [`…and ${elsewhere.length - FOOTER_LINES} more (see --json)`] : []),
  ];
  const sheetWidth = columns * TILE_WIDTH + (columns + 1) * 12;
  const footerLines = fit(footer, Math.floor(sheetWidth / 8.2));
  graph.push(
    `[grid]pad=iw:ih+${LINE_HEIGHT * footerLines.length + 16}:0:0:0xF4F4F4,` +
      `drawtext=fontfile=${font}:textfile=${await text('footer.txt', footerLines.join('\n'))}:expansion=none:x=12:y=h-${LINE_HEIGHT * footerLines.length + 4}:fontsize=14:line_spacing=${LINE_HEIGHT - 14}:fontcolor=0x222222[out]`,
  );
  const target = path.resolve(input.output);
  const temp = `${target}.partial.png`;
  args.push('-filter_complex', graph.join(';'), '-map', '[out]', '-frames:v', '1', '-update', '1', temp);
  try {
    await runFfmpeg(input.ffmpeg, args, {
      cwd: input.dir,
      what: 'compose the contact sheet',
      ...(input.signal ? { signal: input.signal } : {}),
    });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}

/** Every time a finding is at (up to the limit), then others spread evenly, in time order. */
export function chooseTiles(sampled: readonly number[], wanted: readonly number[], max = MAX_TILES): number[] {
  const chosen = new Set<number>();
  for (const t of wanted) if (sampled.includes(t) && chosen.size < max) chosen.add(t);
  const rest = [...sampled].sort((a, b) => a - b).filter((t) => !chosen.has(t));
  const room = max - chosen.size;
  if (room > 0 && rest.length > 0) {
    const step = rest.length / Math.min(room, rest.length);
    for (let k = 0; k < Math.min(room, rest.length); k++) chosen.add(rest[Math.floor(k * step + step / 2)]!);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** A region scaled onto its tile; one outside the frame is drawn as a strip along the edge it is past. */
function placeBox(region: NonNullable<CheckFinding['region']>, scale: number, width: number, height: number) {
  const x0 = Math.round(region.x * scale);
  const y0 = Math.round(region.y * scale);
  const x1 = Math.round((region.x + region.width) * scale);
  const y1 = Math.round((region.y + region.height) * scale);
  const clampX = (v: number): number => Math.min(width - 6, Math.max(0, v));
  const clampY = (v: number): number => Math.min(height - 6, Math.max(0, v));
  const x = clampX(x0);
  const y = clampY(y0);
  return { x, y, width: Math.max(6, Math.min(width, x1) - x), height: Math.max(6, Math.min(height, y1) - y) };
}

function where(finding: CheckFinding): string {
  if (finding.element) return [...finding.element.hosts, finding.element.selector].join(' >>> ');
  if (finding.file) return finding.file.line > 0 ? `${finding.file.path}:${finding.file.line}` : finding.file.path;
  return '';
}

/** Lines cut to `max` characters (drawtext does not wrap). */
function fit(lines: readonly string[], max: number): string[] {
  return lines.map((line) => (line.length > max ? `${line.slice(0, max - 1)}…` : line));
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
