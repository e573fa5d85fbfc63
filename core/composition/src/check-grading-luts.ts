import { declarationLookup } from './check-color-grading.js';
import { attrLocation, attrValueLocator, getAttr, listElements, parseHtml, type SourceLocation } from './html-tree.js';
import type { LintRuleId } from './lint-rules.js';
import type { LintHost } from './lint-project.js';
import { locateJsonPath } from './locate-json-path.js';
import { parseColorGrading } from './parse-color-grading.js';
import { SeekframeError } from './errors.js';
import { parseCubeLut } from './parse-cube-lut.js';
import { isRemoteUrl, relativePosixPath, resolveSourcePath } from './posix-path.js';
import type { VariableDeclaration } from './variable-declarations.js';
import { ATTR } from './composition-attributes.js';

type Add = (at: SourceLocation, rule: LintRuleId, message: string) => void;

/**
 * Every `lut` in a file's `data-color-grading` (a literal or the default of a referenced
 * variable) must be a `.cube` file of the project that parses. Gradings with other problems are
 * skipped: `checkColorGrading` already reported them.
 */
export async function checkGradingLuts(
  html: string,
  file: string,
  rootDir: string,
  variables: readonly VariableDeclaration[],
  host: LintHost,
  add: Add,
): Promise<void> {
  if (!html.includes(ATTR.colorGrading)) return;
  const lookup = declarationLookup(variables);
  const reads = new Map<string, Promise<string | undefined>>();
  for (const element of listElements(parseHtml(html))) {
    const text = getAttr(element, ATTR.colorGrading);
    if (text === undefined) continue;
    const lut = parseColorGrading(text, lookup).grading?.lut;
    if (lut === undefined) continue;
    const locate = attrValueLocator(html, element, ATTR.colorGrading);
    const at = locate ? locate(locateJsonPath(text, ['lut'])) : attrLocation(element, ATTR.colorGrading);
    if (isRemoteUrl(lut)) {
      add(at, 'media/missing-lut', `data-color-grading lut "${lut}" is a URL; copy the .cube file into the project and give its path`);
      continue;
    }
    const lutPath = resolveSourcePath(file, lut, rootDir);
    if (!reads.has(lutPath)) reads.set(lutPath, host.readFile(lutPath));
    const content = await reads.get(lutPath);
    if (content === undefined) {
      add(
        at,
        'media/missing-lut',
        `data-color-grading lut "${lut}" points to ${relativePosixPath(rootDir, lutPath)}, which does not exist; fix the path or add the .cube file`,
      );
      continue;
    }
    try {
      parseCubeLut(content, relativePosixPath(rootDir, lutPath));
    } catch (error) {
      if (!(error instanceof SeekframeError)) throw error;
      add(at, 'media/invalid-lut', `data-color-grading lut: ${error.message}`);
    }
  }
}
