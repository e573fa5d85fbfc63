/**
 * JSON with object keys sorted at every level and undefined fields left out: the same value always
 * gives the same text, whatever order its keys were written in. Hashes of plans, request bodies
 * (Idempotency-Key conflicts) and batch rows are taken over this text. Pure, Worker-safe.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
