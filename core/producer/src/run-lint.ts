import path from 'node:path';
import { formatFinding, lintProject, SeekframeError, type LintFinding } from '@seekframe/composition';
import { readProjectFile } from './read-project-file.js';

/**
 * Lints the project before anything starts. Errors stop the render (`lint-failed`, findings in
 * the message and in `details.findings`); warnings are returned for the caller to report.
 */
export async function runLint(entryFile: string, cwd = process.cwd()): Promise<LintFinding[]> {
  const findings = await lintProject(entryFile, { readFile: readProjectFile });
  const shown = findings.map((f) => ({ ...f, file: displayPath(f.file, cwd) }));
  const errors = shown.filter((f) => f.severity === 'error');
  if (errors.length > 0) {
    throw new SeekframeError(
      'lint-failed',
      `${displayPath(entryFile, cwd)} has ${errors.length} lint error${errors.length === 1 ? '' : 's'}; fix ${errors.length === 1 ? 'it' : 'them'} and render again:\n` +
        errors.map((f) => `  ${formatFinding(f)}`).join('\n'),
      { stage: 'lint', details: { findings: shown } },
    );
  }
  return shown;
}


/** Relative to cwd when the file is below it, else absolute (never `../../tmp/...`). */
function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
