/**
 * Render from your own Node process: one render, many from rows of variables, or a check before
 * either. `@seekframe/producer` is what the `seekframe` CLI runs; every option here is also a
 * flag of `seekframe render` or `seekframe check`.
 *
 * ```ts
 * import { renderComposition } from '@seekframe/producer';
 * const result = await renderComposition({ projectDir: './my-video', output: 'out.mp4' }, (event) => console.log(event.type));
 * ```
 * @module Rendering from Node
 */
export {
  renderComposition,
  renderBatch,
  checkComposition,
  parseRenderSpec,
  parseBatchOptions,
  type RenderSpecInput,
  type RenderResult,
  type RenderEvent,
  type RenderEventListener,
  type RenderStage,
  type BatchOptionsInput,
  type BatchEvent,
  type CheckInput,
} from '@seekframe/producer';
