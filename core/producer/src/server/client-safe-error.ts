import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SeekframeErrorData } from '@seekframe/composition';
import type { ProducerServerEvent } from './server-events.js';

/**
 * Errors leave the server with no absolute server path in them: a client learns names relative to
 * its project, never where the server keeps its root, outputs or temp folders. Applied once, where
 * responses and stream events are written, so no error path can forget it.
 */
export function createPathScrubber(folders: { root: string; outputsDir: string }): (text: string) => string {
  const tmp = os.tmpdir();
  // Longest first, so a folder inside the root is named by its own rule.
  const known: Array<[string, string]> = [
    [folders.outputsDir, '<outputs>'],
    [folders.root, ''],
  ].sort((a, b) => b[0]!.length - a[0]!.length) as Array<[string, string]>;
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Our own temp folders (inline projects, render work dirs): the path inside them is what matters.
  const temp = new RegExp(`${escape(tmp)}${escape(path.sep)}seekframe-[\\w.-]+(${escape(path.sep)}|(?![\\w.-]))`, 'g');
  // Any other absolute path under one of this machine's top folders (read from `/` itself, so no
  // folder is missed; not a URL's path, which follows a host or port, and not a route such as
  // /render/queue): shown by its last name only.
  const absolute = new RegExp(`(?<![\\w:/.@-])\\/(?:${topFolders().map(escape).join('|')})(?:\\/[\\w.@+~-]+)+`, 'g');
  return (text) => {
    let out = text;
    for (const [folder, name] of known) {
      out = out.split(`${folder}${path.sep}`).join(name ? `${name}/` : '');
      out = out.split(folder).join(name || '.');
    }
    out = out.replace(temp, '');
    return out.replace(absolute, (match) => `…/${path.basename(match)}`);
  };
}

/** The machine's top-level folders, plus the usual ones of other systems (macOS, containers). */
function topFolders(): string[] {
  const usual = [
    'tmp',
    'var',
    'home',
    'root',
    'srv',
    'opt',
    'usr',
    'etc',
    'mnt',
    'data',
    'work',
    'private',
    'Users',
    'proc',
    'dev',
    'run',
    'app',
    'media',
    'nix',
    'snap',
  ];
  let present: string[] = [];
  try {
    present = readdirSync('/').filter((name) => /^[\w.@+~-]+$/.test(name));
  } catch {
    // Not readable: the usual names still apply.
  }
  return [...new Set([...present, ...usual])];
}

/** Every string in an error's data (message, details, nested), scrubbed. */
export function scrubErrorData(error: SeekframeErrorData, scrub: (text: string) => string): SeekframeErrorData {
  return deepScrub(error, scrub, 0) as SeekframeErrorData;
}

function deepScrub(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => deepScrub(item, scrub, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepScrub(item, scrub, depth + 1)]));
}

/** Stream events: errors and warnings carry messages; the rest carry no server paths. */
export function scrubEvent<E extends ProducerServerEvent>(event: E, scrub: (text: string) => string): E {
  if (event.type === 'error') return { ...event, error: scrubErrorData(event.error, scrub) };
  if (event.type === 'warning') return deepScrub(event, scrub, 0) as E;
  return event;
}
