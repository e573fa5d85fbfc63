import { SeekframeError } from './errors.js';
import { inspectComposition, type CompositionMetadata, type InspectOptions } from './inspect-composition.js';

/**
 * Compile-time metadata of one composition file. Throws `SeekframeError('invalid-composition')`
 * when the root or the variable declarations are unusable (the message lists every such problem
 * with line:col); softer problems (clip timing, host values) are `lintProject`'s business.
 */
export function extractCompositionMetadata(html: string, options: InspectOptions = {}): CompositionMetadata {
  const inspection = inspectComposition(html, options);
  const fatal = inspection.findings.filter(
    (f) => f.severity === 'error' && (f.rule.startsWith('root/') || f.rule.startsWith('variables/')),
  );
  if (fatal.length > 0) {
    const file = options.file ?? 'the composition';
    const lines = fatal.map((f) => `  ${f.line}:${f.column} ${f.message}`).join('\n');
    throw new SeekframeError('invalid-composition', `${file} is not a valid composition:\n${lines}`, {
      stage: 'load',
      details: { file: options.file, findings: fatal.map((f) => ({ rule: f.rule, line: f.line, column: f.column, message: f.message })) },
    });
  }
  return inspection.metadata;
}
