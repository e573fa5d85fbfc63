import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { applyAttributeChanges } from './source-edit.js';
import type { StudioEdits } from './studio-edits.js';
import type { EditResult, WaveformInfo } from './studio-types.js';
import { checkTimingChange } from './timing-change.js';
import { setVariableDefaults } from './variable-defaults-edit.js';

const Hash = z.string().regex(/^[0-9a-f]{64}$/, 'is not a SHA-256 hex digest (send the hash source.json gave)');

const EditBody = z.strictObject({
  file: z.string().max(1000).optional(),
  hash: Hash,
  label: z.string().max(200).optional(),
  changes: z
    .array(
      z.strictObject({
        line: z.number().int().min(1),
        column: z.number().int().min(1),
        attribute: z.string().max(100),
        value: z.string().max(200),
      }),
    )
    .min(1)
    .max(50),
});

const HistoryBody = z.strictObject({ hash: Hash });

const DefaultsBody = z.strictObject({
  file: z.string().max(1000).optional(),
  hash: Hash,
  values: z.record(z.string(), z.unknown()),
});

async function body<T>(c: Context, schema: z.ZodType<T>, shape: string): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new SeekframeError('invalid-json', `The body is not valid JSON; send ${shape}.`, { stage: 'serve' });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    throw new SeekframeError('invalid-body', `The edit is not usable: ${problems.join('; ')}. Send ${shape}.`, {
      stage: 'serve',
      details: { problems },
    });
  }
  return parsed.data;
}

/**
 * The studio's writes to the project (mounted under the studio API, behind its host, origin and
 * JSON checks): `GET source.json?file=`, `POST edits` (timing attributes only), `POST edits/undo`,
 * `POST edits/redo`, `GET edits`, `POST variables/defaults`, and `GET waveform?src=` (read only).
 */
export function studioEditRoutes(edits: StudioEdits, waveform: (src: string) => Promise<WaveformInfo>): Hono {
  const result = (info: Awaited<ReturnType<StudioEdits['source']>>): EditResult => ({ ...info, history: edits.history() });
  return new Hono()
    .get('/source.json', async (c) => c.json(await edits.source(c.req.query('file'))))
    .get('/edits', (c) => c.json(edits.history()))
    .post('/edits', async (c) => {
      const edit = await body(c, EditBody, '{file?, hash, label?, changes: [{line, column, attribute, value}]}');
      const file = edit.file ?? 'the entry';
      for (const change of edit.changes) checkTimingChange(file, change.attribute, change.value);
      const info = await edits.write(edit.file, edit.hash, edit.label ?? 'Timeline edit', (text, rel) =>
        applyAttributeChanges(text, edit.changes, rel),
      );
      return c.json(result(info));
    })
    .post('/edits/undo', async (c) => c.json(result(await edits.undo((await body(c, HistoryBody, '{hash}')).hash))))
    .post('/edits/redo', async (c) => c.json(result(await edits.redo((await body(c, HistoryBody, '{hash}')).hash))))
    .post('/variables/defaults', async (c) => {
      const edit = await body(c, DefaultsBody, '{file?, hash, values}');
      const info = await edits.write(edit.file, edit.hash, 'Save variables as defaults', (text, rel) =>
        setVariableDefaults(text, edit.values, rel),
      );
      return c.json(result(info));
    })
    .get('/waveform', async (c) => c.json(await waveform(c.req.query('src') ?? '')));
}
