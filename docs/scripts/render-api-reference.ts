import { renderApiDocument } from '@seekframe/render-api';
import { generatedNotice } from './generated-notice.js';
import { schemaTable, type JsonSchema } from './json-schema-table.js';
import { cell } from './markdown-table.js';

type Document = ReturnType<typeof renderApiDocument>;
interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema & { format?: string } }> }>;
}

const METHODS = ['get', 'head', 'post', 'delete'] as const;

/** Schema names link to their section below. */
const schemaLink = (ref: string): string => {
  const name = ref.split('/').pop()!;
  return `[\`${name}\`](#schema-${name.toLowerCase()})`;
};

function operations(document: Document): { method: string; route: string; operation: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
    METHODS.filter((method) => (item as Record<string, unknown>)[method]).map((method) => ({
      method: method.toUpperCase(),
      route,
      operation: (item as Record<string, Operation>)[method]!,
    })),
  );
}

function anchor(method: string, route: string): string {
  return `${method}${route}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-+$/, '');
}

/** What a response carries, per media type: a schema link, the file, or a type. */
function bodyOf(content: Operation['responses'][string]['content']): string {
  if (!content) return '—';
  const binary = Object.entries(content)
    .filter(([, media]) => media.schema.format === 'binary')
    .map(([type]) => `\`${type}\``);
  const rest = Object.entries(content)
    .filter(([, media]) => media.schema.format !== 'binary')
    .map(([type, media]) => `${media.schema.$ref ? schemaLink(media.schema.$ref) : (media.schema.type ?? 'any')} (\`${type}\`)`);
  return [...rest, ...(binary.length ? [`the file (${binary.join(', ')})`] : [])].join(', ');
}

function operationSection(method: string, route: string, operation: Operation): string[] {
  const lines = [`### \`${method} ${route}\` {#${anchor(method, route)}}`, ''];
  if (operation.summary) lines.push(`**${operation.summary}.** ${operation.description ?? ''}`.trimEnd(), '');
  lines.push(
    operation.security?.length === 0
      ? 'No token needed.'
      : 'Needs `Authorization: Bearer <token>` when the deployment sets `RENDER_API_TOKEN`.',
    '',
  );
  if (operation.parameters?.length) {
    lines.push('| parameter | in | value | meaning |', '|---|---|---|---|');
    for (const p of operation.parameters) {
      const value = p.schema?.enum ? p.schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ') : String(p.schema?.type ?? 'string');
      lines.push(`| \`${p.name}\` | ${p.in} | ${value}${p.required ? '' : ' (optional)'} | ${cell(p.description ?? '')} |`);
    }
    lines.push('');
  }
  if (operation.requestBody) lines.push(`Request body: ${bodyOf(operation.requestBody.content)}.`, '');
  lines.push('| status | when | body |', '|---|---|---|');
  for (const [status, response] of Object.entries(operation.responses))
    lines.push(`| ${status} | ${cell(response.description)} | ${bodyOf(response.content)} |`);
  lines.push('');
  return lines;
}

/** One webhook: when it is sent, its headers, its body field by field. */
function webhookSection(type: string, operation: Operation): string[] {
  const lines = [`### \`${type}\` {#webhook-${type.replace('.', '-')}}`, '', operation.description ?? '', ''];
  lines.push('| header | meaning |', '|---|---|');
  for (const p of operation.parameters ?? []) lines.push(`| \`${p.name}\` | ${cell(p.description ?? '')} |`);
  lines.push('');
  const body = operation.requestBody?.content['application/json']?.schema;
  if (body) lines.push('Body:', '', schemaTable(body, schemaLink), '');
  return lines;
}

/** The error body with its code list (every code there is) replaced by a link to the error reference. */
function withCodesLinked(schema: JsonSchema): JsonSchema {
  const error = schema.properties?.error;
  const code = error?.properties?.code;
  if (!error || !code) return schema;
  const linked = { type: 'string', description: `One of the [error codes](./errors.md) (${code.enum?.length ?? 0}, a closed list).` };
  return { ...schema, properties: { ...schema.properties, error: { ...error, properties: { ...error.properties, code: linked } } } };
}

/**
 * docs/reference/render-api.md: the render API's OpenAPI document (@seekframe/render-api's
 * renderApiDocument, made from the routes' zod schemas) as a page: every route, its parameters,
 * answers and the schemas of their bodies.
 */
export function renderApiReference(): string {
  const sync = renderApiDocument({ answerMode: 'sync' });
  const callId = renderApiDocument({ answerMode: 'call-id' });
  const inSync = new Set(operations(sync).map((o) => `${o.method} ${o.route}`));
  const callIdOnly = operations(callId).filter((o) => !inSync.has(`${o.method} ${o.route}`));
  const callIdStart = (callId.paths?.['/api/render']?.post as Operation | undefined)?.responses['200'];
  const schemas = Object.entries(sync.components?.schemas ?? {}).concat(
    Object.entries(callId.components?.schemas ?? {}).filter(([name]) => !sync.components?.schemas?.[name]),
  );

  return [
    '---',
    'title: "Render API (OpenAPI)"',
    'description: "Every route of the render API the deploy templates serve, its parameters, answers and their JSON, from the OpenAPI document served at GET /api/openapi.json."',
    '---',
    '',
    generatedNotice("renderApiDocument in core/render-api/src/openapi-document.ts (the routes' zod schemas)"),
    '',
    '# Render API (OpenAPI)',
    '',
    'Every deploy template (Vercel, Cloudflare, Modal) and `serveLocal` answer the same render API, and',
    `each serves it as an OpenAPI ${sync.openapi} document at \`GET /api/openapi.json\`: feed that URL to an`,
    'OpenAPI client generator or an API explorer. The document is made from the zod schemas the routes',
    'check requests with and answer with, and a test compares its route list with the routes the app',
    'mounts, so it cannot drift from the code. This page is the same document in words.',
    '',
    '`GET /api/openapi.json` needs no token, also on a deployment with `RENDER_API_TOKEN`: it describes',
    'the API and holds no data. Every other `/api/*` route (and `/renders/*`) then needs',
    '`Authorization: Bearer <token>`; the preview page and its files never do. Every error answer is',
    '[`ErrorBody`](#schema-errorbody), `{"error": {code, message, stage?, retryable, details?}}`; the codes are in the',
    '[error reference](./errors.md). How the templates differ (platform limits, storage): [Deploy templates](../deploy/templates.md).',
    '',
    '## Answer modes {#answer-modes}',
    '',
    "Without `Prefer: respond-async`, `POST /api/render` answers as the deployment's answer mode says, and",
    'the document a deployment serves describes its own mode:',
    '',
    '- **sync** (Vercel, Cloudflare, `serveLocal`): the request waits for the render and answers 200',
    "  [`RenderFinished`](#schema-renderfinished) (or 202 [`RenderAccepted`](#schema-renderaccepted) past the platform's request time).",
    `- **call-id** (Modal): ${callIdStart ? `200 ${bodyOf(callIdStart.content)} at once` : 'answers the id at once'}; and ${callIdOnly.map((o) => `\`${o.method} ${o.route}\``).join(', ')} serve${callIdOnly.length === 1 ? 's' : ''} the stored files (below).`,
    '- **async** (the AWS Lambda API, `seekframe lambda`): 202 [`RenderAccepted`](#schema-renderaccepted) at once, always (its',
    "  function cannot wait for a render that runs on other functions); the progress also carries the runner's own fields",
    '  (the distributed `step`, `chunks`, the `cost` estimate), which its document at `GET /api/openapi.json` describes. See',
    '  [Rendering on AWS Lambda](../deploy/aws-lambda.md#the-http-api).',
    '',
    'With `Prefer: respond-async` every mode answers 202 `RenderAccepted` at once.',
    '',
    '## Routes {#routes}',
    '',
    ...operations(sync).flatMap(({ method, route, operation }) => operationSection(method, route, operation)),
    ...callIdOnly.flatMap(({ method, route, operation }) =>
      operationSection(method, route, { ...operation, summary: `${operation.summary} (call-id mode only)` }),
    ),
    '## Webhooks {#webhooks}',
    '',
    "What a render posts to the `webhook.url` of its body, one entry per event (OpenAPI's `webhooks`). Signing,",
    'verifying, retries and the address rules: [Webhooks](../deploy/webhooks.md).',
    '',
    ...Object.entries(sync.webhooks ?? {}).flatMap(([type, item]) => webhookSection(type, (item as Record<string, Operation>).post!)),
    '## Schemas {#schemas}',
    '',
    ...schemas
      .map(([name, schema]) => [name, name === 'ErrorBody' ? withCodesLinked(schema as JsonSchema) : (schema as JsonSchema)] as const)
      .flatMap(([name, schema]) => [
        `### \`${name}\` {#schema-${name.toLowerCase()}}`,
        '',
        ...(schema.description ? [schema.description, ''] : []),
        schemaTable(schema, schemaLink),
        '',
      ]),
  ]
    .join('\n')
    .trimEnd()
    .concat('\n');
}
