import { cell } from './markdown-table.js';

/** The parts of a JSON Schema (2020-12, as zod 4 writes it) the reference tables read. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  minimum?: number;
  maximum?: number;
  $ref?: string;
}

export interface SchemaRow {
  field: string;
  value: string;
  meaning: string;
}

/** How a `$ref` is shown; by default its last segment in backticks. */
export type RefName = (ref: string) => string;
const plainRef: RefName = (ref) => `\`${ref.split('/').pop()}\``;

/** The non-null member of `X | null`, and whether null is allowed. */
function unwrap(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const members = schema.anyOf?.filter((member) => member.type !== 'null');
  if (schema.anyOf && members?.length === 1)
    return { schema: { ...members[0]!, description: schema.description ?? members[0]!.description }, nullable: true };
  return { schema, nullable: false };
}

/** A field's schema in words: what a reader of the JSON finds there. */
export function valueOf(schema: JsonSchema, refName: RefName = plainRef): string {
  const { schema: inner, nullable } = unwrap(schema);
  let text: string;
  if (inner.$ref) text = refName(inner.$ref);
  else if (inner.const !== undefined) text = `\`${JSON.stringify(inner.const)}\``;
  else if (inner.enum) text = inner.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  else if (inner.type === 'array') text = inner.items?.properties ? 'array of objects' : `array of ${valueOf(inner.items ?? {}, refName)}`;
  else if (inner.type === 'object') text = inner.properties ? 'object' : 'object (any keys)';
  else if (Array.isArray(inner.type)) text = inner.type.map((type) => (type === 'null' ? '`null`' : type)).join(' or ');
  // One of several shapes (`"30-59"` or `{start, end}`): each in words.
  else if (inner.anyOf && inner.anyOf.length > 1) text = inner.anyOf.map((member) => valueOf(member, refName)).join(' or ');
  else text = String(inner.type ?? 'any');
  return nullable ? `${text} or \`null\`` : text;
}

/** One row per field, nested objects and arrays of objects flattened as `a.b` and `a[].b`. */
export function schemaRows(schema: JsonSchema, refName: RefName = plainRef, prefix = ''): SchemaRow[] {
  const out: SchemaRow[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const { schema: inner } = unwrap(property);
    const optional = schema.required?.includes(name) ? '' : ' (optional)';
    out.push({ field: `${prefix}${name}`, value: valueOf(property, refName) + optional, meaning: inner.description ?? '' });
    if (inner.type === 'object' && inner.properties) out.push(...schemaRows(inner, refName, `${prefix}${name}.`));
    if (inner.type === 'array' && inner.items?.properties) out.push(...schemaRows(inner.items, refName, `${prefix}${name}[].`));
  }
  return out;
}

/** The field table of an object schema. */
export function schemaTable(schema: JsonSchema, refName: RefName = plainRef): string {
  return [
    '| field | value | meaning |',
    '|---|---|---|',
    ...schemaRows(schema, refName).map((r) => `| \`${r.field}\` | ${cell(r.value)} | ${cell(r.meaning)} |`),
  ].join('\n');
}
