import type { RunnerEvent } from './ports.js';

const TYPES = new Set(['stage', 'progress', 'warning', 'complete', 'error']);

/**
 * One line of `seekframe render --json` (or a container's progress stream) as a RunnerEvent;
 * null for anything else (a blank line, a stray log line, a batch event).
 */
export function parseRunnerEvent(line: string): RunnerEvent | null {
  const text = line.trim();
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && TYPES.has(type) ? (value as RunnerEvent) : null;
}
