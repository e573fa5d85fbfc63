import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compositionDocument as documentArb,
  variableDeclarations as declarations,
  variableValues as overrides,
  looseValue as loose,
} from '../../../scripts/composition-arbitraries.js';
import { checkProperty } from '../../../scripts/property-runs.js';
import {
  ERROR_CODES,
  extractCompositionMetadata,
  inspectComposition,
  lintProject,
  parseBatchRows,
  parseVariableDeclarations,
  parseVariableDeclarationsAttribute,
  planBatch,
  resolveVariables,
  SeekframeError,
  validateOverrides,
} from '../src/index.js';

/**
 * Generated variables, declarations, composition documents and batch files through the pure
 * checks every face runs first (no browser). Each input either passes or is refused with a
 * SeekframeError carrying a known code (or, for the checks that collect problems, a list of
 * them): never another exception, which a server would answer with a 500.
 */
function codedOrNothing(work: () => unknown, what: string): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof SeekframeError) || !(ERROR_CODES as readonly string[]).includes(error.code))
      throw new Error(`${what} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
}

describe('variables and their declarations, generated', () => {
  it('declarations parse to declarations + problems; overrides validate and resolve against them without throwing', async () => {
    await checkProperty(
      'declarations and overrides',
      fc.property(declarations, overrides, fc.string({ maxLength: 40 }), (json, values, attribute) => {
        const parsed = parseVariableDeclarations(json);
        expect(Array.isArray(parsed.problems)).toBe(true);
        codedOrNothing(
          () => parseVariableDeclarationsAttribute(attribute),
          `parseVariableDeclarationsAttribute(${JSON.stringify(attribute)})`,
        );
        codedOrNothing(() => parseVariableDeclarationsAttribute(JSON.stringify(json)), 'parseVariableDeclarationsAttribute(json)');
        const issues = validateOverrides(parsed.declarations, values);
        expect(Array.isArray(issues)).toBe(true);
        codedOrNothing(() => resolveVariables(parsed.declarations, { overrides: values }), `resolveVariables(${JSON.stringify(values)})`);
      }),
      400,
    );
  });
});

describe('composition documents, generated, through lint and the static plan', () => {
  it('lintProject answers findings, and metadata/inspection either answer or refuse with a coded error', async () => {
    await checkProperty(
      'composition html',
      fc.asyncProperty(documentArb, documentArb, async (entry, child) => {
        const files = new Map([
          ['index.html', entry],
          ['child.html', child],
        ]);
        const findings = await lintProject('index.html', { readFile: async (path) => files.get(path) });
        expect(Array.isArray(findings)).toBe(true);
        for (const role of [undefined, 'child'] as const) {
          codedOrNothing(
            () => extractCompositionMetadata(entry, role ? { role } : {}),
            `extractCompositionMetadata(${entry.slice(0, 300)})`,
          );
          codedOrNothing(() => inspectComposition(entry, role ? { role } : {}), `inspectComposition(${entry.slice(0, 300)})`);
        }
      }),
      200,
    );
  });
});

describe('batch files, generated', () => {
  it('parseBatchRows and planBatch answer rows and problems for any JSON, and never throw', async () => {
    const rowsArb = fc.oneof(
      fc.array(overrides, { maxLength: 5 }),
      fc.record({ rows: fc.array(fc.oneof(overrides, loose), { maxLength: 5 }) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const template = fc.oneof(
      fc.constantFrom('out/{title}.mp4', '{index}.mp4', '{x}/{__proto__}.gif', '../{title}', '{', '{}', ''),
      fc.string({ maxLength: 20 }),
    );
    await checkProperty(
      'batch rows',
      fc.property(rowsArb, template, declarations, fc.boolean(), (batch, outputTemplate, declared, strictVariables) => {
        const parsed = parseBatchRows(batch);
        expect(Array.isArray(parsed.problems)).toBe(true);
        const input = {
          batch,
          outputTemplate,
          resolveOutput: (output: string) => `/work/${output}`,
          declarations: parseVariableDeclarations(declared).declarations,
          strictVariables,
          source: 'rows.json',
        };
        codedOrNothing(
          () => planBatch(input as Parameters<typeof planBatch>[0]),
          `planBatch(${JSON.stringify(batch).slice(0, 200)}, ${outputTemplate})`,
        );
      }),
      400,
    );
  });
});
