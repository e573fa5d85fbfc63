import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';

/**
 * What kind of failure a step's error is, for every distributed path: Lambda's retry table
 * (Step Functions and its local runner) and the fleet's BullMQ attempts both branch on it.
 */
export type FailureKind = 'fatal' | 'throttled' | 'timeout' | 'transient';

/**
 * Codes that are deterministic whatever their `retryable` flag says: the plan or the binaries
 * differ, the browser cannot do what the plan needs, or the composition itself is wrong.
 */
export const FATAL_CODES: ReadonlySet<string> = new Set([
  'plan-hash-mismatch',
  'version-mismatch',
  'browser-binary-unavailable',
  'beginframe-unsupported',
  'format-not-distributable',
  'variables-too-large',
  'segment-missing',
  'invalid-options',
  'invalid-variables',
  'invalid-body',
  'lint-failed',
  'entry-not-found',
  'empty-composition',
  'limit-exceeded',
  'memory-limit-exceeded',
  'render-timeout',
  'page-script-error',
  'asset-not-found',
  'media-source-refused',
  'render-cancelled',
  'invalid-job',
]);

/** Messages of errors that are known to pass (browser and network flakes, S3 hiccups). */
const TRANSIENT_MESSAGES = [
  'Target closed',
  'Session closed',
  'SIGKILL',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'socket hang up',
  'getaddrinfo',
  'Compositor exited',
  'We encountered an internal error',
  'Service Unavailable',
];
const THROTTLE_NAMES = new Set([
  'TooManyRequestsException',
  'ThrottlingException',
  'Throttling',
  'SlowDown',
  'RequestLimitExceeded',
  'ConcurrentInvocationLimitExceeded',
]);

export interface Classified {
  kind: FailureKind;
  error: SeekframeErrorData;
}

/**
 * Decides the kind of any thrown value; SeekframeErrors keep their code, others get
 * `internal-error`. `kindOfName` lets a platform name its own error types first (Lambda's
 * `Seekframe.Timeout`, `States.Timeout`).
 */
export function classifyFailure(thrown: unknown, kindOfName: (name: string) => FailureKind | null = () => null): Classified {
  if (thrown instanceof SeekframeError) {
    const data = thrown.toJSON();
    if (FATAL_CODES.has(thrown.code)) return { kind: 'fatal', error: { ...data, retryable: false } };
    if (thrown.code === 'chunk-timeout') return { kind: 'timeout', error: data };
    if (thrown.code === 'storage-failed' && thrown.details?.throttled === true) return { kind: 'throttled', error: data };
    if (thrown.retryable || matchesTransient(thrown.message)) return { kind: 'transient', error: { ...data, retryable: true } };
    return { kind: 'fatal', error: data };
  }
  const name = thrown instanceof Error ? thrown.name : '';
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const kind: FailureKind = kindOfName(name) ?? (THROTTLE_NAMES.has(name) ? 'throttled' : 'transient');
  // Something nobody typed: retried like a transient failure, a bounded number of times.
  return { kind, error: { code: 'internal-error', message: `${name ? `${name}: ` : ''}${message}`, retryable: kind !== 'fatal' } };
}

function matchesTransient(message: string): boolean {
  return TRANSIENT_MESSAGES.some((needle) => message.includes(needle));
}
