import { accessSync, constants } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { renderComposition, type RenderContext } from '@seekframe/producer';
import { previewHosts } from '../preview-hosts.js';
import { chooseEditor } from './editor-link.js';
import { createStudioApi } from './studio-api.js';
import { createStudioEdits } from './studio-edits.js';
import { createStudioRenders, type StudioRenderRunner } from './studio-renders.js';
import { STUDIO_ROUTE } from './studio-route.js';
import { createStudioWaveforms } from './studio-waveform.js';

export interface StudioOptions {
  root: string;
  entryFile: string;
  /** The host the preview listens on (its requests must name it or a loopback name). */
  host: string;
  /** For the editor link: SEEKFRAME_EDITOR_URL, VISUAL, EDITOR, PATH. */
  env: Record<string, string | undefined>;
  /** What `seekframe render` passes to the render besides the options (the saved tuning). */
  renderContext?: RenderContext;
  /** Replaces the local render (tests of the panel's failure paths); default `renderComposition`. */
  run?: StudioRenderRunner;
}

export interface Studio {
  /** Answers `STUDIO_ROUTE` paths; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Project files changed: earlier renders are now stale. */
  noteChange(): void;
  /** Cancels the renders still running or waiting. */
  close(): Promise<void>;
}

/** The studio's server half: its API (timeline source lines, editor link, render panel) for `seekframe preview`. */
export function createStudio(options: StudioOptions): Studio {
  const run: StudioRenderRunner =
    options.run ??
    ((renderOptions, onEvent, signal) => renderComposition({ ...renderOptions, signal }, onEvent, options.renderContext ?? {}));
  const renders = createStudioRenders({ root: options.root, entryFile: options.entryFile, run });
  const app = createStudioApi({
    root: options.root,
    entryFile: options.entryFile,
    renders,
    edits: createStudioEdits({ root: options.root, entryFile: options.entryFile }),
    waveform: createStudioWaveforms(options.root),
    editor: chooseEditor(options.env, (command) => onPath(command, options.env.PATH)),
    hosts: previewHosts(options.host),
  });
  const listener = getRequestListener(app.fetch);
  return {
    handle(req, res) {
      const pathname = new URL(req.url ?? '/', 'http://preview').pathname;
      if (!pathname.startsWith(STUDIO_ROUTE)) return false;
      void listener(req, res);
      return true;
    },
    noteChange: () => renders.noteChange(),
    close: () => renders.close(),
  };
}

/** Whether an executable named `command` is in one of the PATH folders (looked up, never run). */
function onPath(command: string, searchPath: string | undefined): boolean {
  return (searchPath ?? '').split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
