import { formatFinding, lintProject, SeekframeError, type LintFinding } from '@seekframe/composition';
import { displayPath } from '../serve/display-path.js';
import path from 'node:path';
import { fontPackageCheck } from '../serve/fonts/font-package-check.js';
import { readProjectFile } from '../serve/read-project-file.js';

/**
 * Lints the project before anything starts. Errors stop the render (`lint-failed`, findings in
 * the message and in `details.findings`); warnings are returned for the caller to report.
 * `readFile` is the lint host's reader: server renders pass one confined to the project.
 */
export async function runLint(
  entryFile: string,
  cwd = process.cwd(),
  readFile: (file: string) => Promise<string | undefined> = readProjectFile,
): Promise<LintFinding[]> {
  const findings = await lintProject(entryFile, { readFile, fontPackageInstalled: fontPackageCheck(path.dirname(entryFile)) });
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
