import path from 'node:path';
import { formatFinding, preflightProject, SeekframeError, type LintFinding, type PreflightHost } from '@seekframe/composition';
import { displayPath } from '../serve/display-path.js';
import { preflightHost } from '../serve/preflight-host.js';

/**
 * The render's preflight before anything starts: the one engine every caller runs
 * (`preflightProject`: lint's rules and the project files the pages load). Errors stop the render
 * (`lint-failed`, findings in the message and in `details.findings`); warnings are returned for
 * the caller to report. `host` is the project on disk by default; server renders pass a confined
 * one (`preflightHost(root, { confined: true })`), an inline document its own.
 */
export async function runLint(
  entryFile: string,
  cwd = process.cwd(),
  host: PreflightHost = preflightHost(path.dirname(entryFile)),
): Promise<LintFinding[]> {
  const findings = await preflightProject(entryFile, host);
  const shown = findings.map((f) => ({ ...f, file: displayPath(cwd, f.file) }));
  const errors = shown.filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    throw new SeekframeError(
      'lint-failed',
      `${displayPath(cwd, entryFile)} has ${errors.length} lint error${errors.length === 1 ? '' : 's'}; fix ${errors.length === 1 ? 'it' : 'them'} and render again:\n` +
        errors.map((f) => `  ${formatFinding(f)}`).join('\n'),
      { stage: 'lint', details: { findings: shown } },
    );
  }
  return shown;
}
