import type { VariableDeclaration } from './variable-declarations.js';

export interface VariableLayers {
  /** Per-instance values from a sub-composition host's `data-variable-values`. */
  host?: Record<string, unknown> | undefined;
  /** Top-level values from `--variables`, `--variables-file`, a batch row or the player. */
  overrides?: Record<string, unknown> | undefined;
}

/**
 * Declared defaults <- host values <- overrides. Each key is looked up separately, so a key a
 * layer does not set (or sets to `undefined`) falls through to the layer below. Keys nobody
 * declared are passed through as given: `validateOverrides` reports them, and whether that is
 * fatal is the caller's choice (`--strict-variables`).
 */
export function resolveVariables(declarations: readonly VariableDeclaration[], layers: VariableLayers = {}): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const declaration of declarations) resolved[declaration.id] = declaration.default;
  for (const layer of [layers.host, layers.overrides]) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) resolved[key] = value;
    }
  }
  return resolved;
}
