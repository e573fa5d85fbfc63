import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserInfo, BrowserPool } from '@seekframe/engine';
import { renderComposition } from '../render/render-composition.js';
import type { RenderLimits } from '../plan/render-limits.js';
import type { JobRunner } from '../jobs/render-job.js';
import type { OutputStore } from './output-store.js';
import type { RenderReport } from '../report/render-report.js';
import type { ParsedRenderRequest } from './render-request.js';
import { INLINE_PROJECT_PREFIX } from './server-options.js';

/** What a finished server render gives a client: a download URL instead of a server path. */
export interface ServerRenderResult {
  /** `/outputs/<token>` on this server. */
  outputUrl: string;
  size: number;
  durationMs: number;
  videoDuration: number;
  /** Where the time went (RenderReportSchema): holds no path of this server. */
  report: RenderReport;
}

/**
 * The producer server's job runner: an inline `html` body becomes a temp project (removed
 * afterwards), the page runs sandboxed under the server's limits, and the output is moved into
 * the output store under a fresh token only once complete (a failed or cancelled render leaves
 * nothing there). Failing or cancelling is the job service's business: this just throws.
 */
export function createServerRenderRunner(
  outputs: OutputStore,
  settings: { limits: RenderLimits; pageTimeoutMs: number; browsers?: BrowserPool | undefined; browser?: () => Promise<BrowserInfo> },
): JobRunner<ParsedRenderRequest, ServerRenderResult> {
  return async (request, { signal, report }) => {
    let inlineDir: string | undefined;
    const slot = outputs.allocate(request.options.format);
    try {
      let projectDir: string;
      if (request.source.kind === 'html') {
        inlineDir = await mkdtemp(INLINE_PROJECT_PREFIX);
        await writeFile(path.join(inlineDir, 'index.html'), request.source.html);
        projectDir = inlineDir;
      } else {
        projectDir = request.source.projectDir;
      }
      const result = await renderComposition(
        {
          ...request.options,
          projectDir,
          output: slot.file,
          network: 'sandboxed',
          signal,
          limits: settings.limits,
          readyTimeoutMs: settings.pageTimeoutMs,
          seekTimeoutMs: settings.pageTimeoutMs,
        },
        report,
        // The server's warm pool: each render's pages get a fresh isolated context in a running browser.
        { ...(settings.browsers ? { browsers: settings.browsers } : {}), ...(settings.browser ? { browser: settings.browser } : {}) },
      );
      await outputs.publish(slot);
      return {
        outputUrl: `/outputs/${slot.token}`,
        size: result.size,
        durationMs: result.durationMs,
        videoDuration: result.videoDuration,
        report: result.report,
      };
    } finally {
      await outputs.discard(slot);
      if (inlineDir) await rm(inlineDir, { recursive: true, force: true, maxRetries: 3 });
    }
  };
}
