import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RenderProfile, RenderReport, RenderResult } from '@seekframe/producer';
import { invalidArgument } from '../usage-error.js';

/**
 * `render --report <file>`: runs the render with a profile the CLI holds, so the report of
 * where the time went is written whatever happens (a render that failed or was cancelled gets
 * the stages it reached). The file is written beside its target and renamed, never half-written.
 */
export async function withReportFile(
  file: string | undefined,
  cwd: string,
  render: (profile: RenderProfile | undefined) => Promise<RenderResult>,
): Promise<RenderResult> {
  if (file === undefined) return render(undefined);
  if (file.trim() === '') throw invalidArgument('--report', '--report needs a file name, e.g. --report render-report.json');
  const target = path.resolve(cwd, file);
  const { RenderProfile, buildRenderReport } = await import('@seekframe/producer');
  const profile = new RenderProfile();
  let result: RenderResult;
  try {
    result = await render(profile);
  } catch (error) {
    const cancelled = typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'render-cancelled';
    await save(target, buildRenderReport(profile, { status: cancelled ? 'cancelled' : 'failed' })).catch(() => undefined);
    throw error;
  }
  await save(target, result.report);
  return result;
}

async function save(target: string, report: RenderReport): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`);
  try {
    await writeFile(temp, `${JSON.stringify(report, null, 2)}\n`);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
