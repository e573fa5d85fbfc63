import { z } from 'zod';
import { COMPOSITION_ATTRIBUTES, VARIABLE_SCHEMAS, VARIABLE_TYPES, type VariableType } from '@seekframe/composition';
import { generatedNotice } from './generated-notice.js';
import { cell } from './markdown-table.js';

/** The attribute table, from the registry in core/composition/src/composition-attributes.ts. */
export function attributeTable(): string {
  const rows = COMPOSITION_ATTRIBUTES.map((a) => `| \`${a.name}\` | ${cell(a.on)} | ${cell(a.value || '–')} | ${cell(a.meaning)} |`);
  return ['| attribute | on | value | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function attributeReference(): string {
  return page(
    'Composition attributes',
    'Every attribute a composition is written with: where it goes, its value and what it does.',
    'COMPOSITION_ATTRIBUTES in core/composition/src/composition-attributes.ts',
    [
      'The root of a composition is `<html>`, or the first element that carries `data-composition-id` and the',
      'dimensions. How they work together: [The composition format](../guide/composition-format.md).',
      '',
      attributeTable(),
    ],
  );
}

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  description?: string;
  minLength?: number;
  minItems?: number;
  pattern?: string;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

function jsonSchema(type: VariableType): JsonSchema {
  return z.toJSONSchema(VARIABLE_SCHEMAS[type], { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

/** A field's JSON Schema in words: the shape a reader writes, not Schema vocabulary. */
function valueOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  if (types.includes('array')) {
    const item = schema.items?.properties ? `{${Object.keys(schema.items.properties).join(', ')}}` : 'value';
    return `array of \`${item}\`${schema.minItems ? `, at least ${schema.minItems}` : ''}`;
  }
  const words = types.map((t) => (t === 'integer' ? 'whole number' : t));
  let text = words.join(' or ');
  if (schema.minLength === 1) text = `non-empty ${text}`;
  if (schema.exclusiveMinimum === 0) text += ' > 0';
  if (schema.pattern) text += ` matching \`${schema.pattern}\``;
  return text;
}

function fieldRows(schema: JsonSchema, fields: string[]): string[] {
  return fields.map((field) => {
    const property = schema.properties![field]!;
    const required = schema.required?.includes(field) ? 'yes' : 'no';
    return `| \`${field}\` | ${required} | ${cell(valueOf(property))} | ${cell(property.description ?? '')} |`;
  });
}

/**
 * The declaration schema as tables: the fields every type shares (same JSON Schema in every type),
 * then each type's own. `heading` is the Markdown level of the per-type headings.
 */
export function variableTables(heading: string): string {
  const schemas = VARIABLE_TYPES.map((type) => ({ type, schema: jsonSchema(type) }));
  const first = schemas[0]!.schema;
  const shared = Object.keys(first.properties!).filter((field) =>
    schemas.every(({ schema }) => JSON.stringify(schema.properties![field]) === JSON.stringify(first.properties![field])),
  );
  const head = ['| field | required | value | meaning |', '|---|---|---|---|'];
  const out = [`${heading} Every type`, '', ...head, ...fieldRows(first, shared), ''];
  for (const { type, schema } of schemas) {
    const own = Object.keys(schema.properties!).filter((field) => !shared.includes(field));
    out.push(`${heading} \`${type}\``, '', schema.description ?? '', '', ...head, ...fieldRows(schema, own), '');
  }
  return out.join('\n').trimEnd();
}

export function variableReference(): string {
  return page(
    'Variable declarations',
    'The schema of data-composition-variables: every field of every variable type.',
    'the zod schemas in core/composition/src/variable-declarations.ts',
    [
      '`data-composition-variables` on `<html>` is a JSON array of declarations. Ids are unique; the default',
      'must satisfy its own type and limits (lint reports each problem at its place in the JSON). How values',
      'reach the page and how overrides are checked: [Variables](../guide/variables.md).',
      '',
      variableTables('##'),
    ],
  );
}

function page(title: string, description: string, source: string, body: string[]): string {
  return `${['---', `title: ${JSON.stringify(title)}`, `description: ${JSON.stringify(description)}`, '---', '', generatedNotice(source), '', `# ${title}`, '', ...body].join('\n').trimEnd()}\n`;
}
