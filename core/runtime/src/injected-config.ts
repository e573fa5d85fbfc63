import * as z from 'zod/mini';
import type { VariableDeclaration } from '@seekframe/composition';

/**
 * What the server puts in `window.__seekframeConfig` before the runtime runs (docs/contributing/architecture.md).
 * Checked in the page, so a producer bug shows up as a named error rather than NaN time.
 * zod/mini keeps the in-page bundle small (classic zod adds ~450 kB with its locales).
 */
export const InjectedConfigSchema = z.object({
  mode: z.enum(['render', 'preview']),
  composition: z.object({
    id: z.string(),
    /** 0 in a child file whose root has no size: the host's box gives it. */
    width: z.number().check(z.nonnegative()),
    height: z.number().check(z.nonnegative()),
    /** 0 when the file has none: a child's host decides, or the timeline the page registers. */
    duration: z.number().check(z.nonnegative()),
    fps: z.optional(z.number().check(z.positive())),
  }),
  variables: z.optional(z.record(z.string(), z.unknown())),
  declarations: z.optional(z.array(z.looseObject({ id: z.string() }))),
  seed: z.optional(z.number()),
  fps: z.optional(z.number().check(z.positive())),
  /** Wall-clock origin of the virtual `Date.now()` in ms; give every render worker the same one. */
  epochMs: z.optional(z.number()),
  /**
   * A plain page (not a composition) shown in an `<iframe>` of one: `composition` is a placeholder;
   * its runtime only makes the clock (rAF, timers, Date) follow the seeks of the embedding page.
   */
  embedded: z.optional(z.boolean()),
});

export type InjectedConfig = Omit<z.infer<typeof InjectedConfigSchema>, 'declarations'> & {
  declarations?: VariableDeclaration[];
};

/**
 * The part of `data-composition-variables` the page needs to resolve values: ids and defaults.
 * Full validation (types, ranges, options) is the linter's job and happens before rendering.
 */
export const DeclarationDefaultsSchema = z.array(z.looseObject({ id: z.string(), default: z.unknown() }));
