import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';

/**
 * One retry table for the Step Functions definition and the local fan-out runner: what kind of
 * failure an error is, and how often / how late each kind is tried again.
 */
export type FailureKind = 'fatal' | 'throttled' | 'timeout' | 'transient';

export interface RetryRule {
  kind: FailureKind;
  /** The error name a handler throws for this kind (Lambda's errorType, Step Functions' Error). */
  errorName: string;
  /** AWS error names Step Functions reports for this kind without our handler's help. */
  awsErrorNames: readonly string[];
  /** Retries after the first attempt (0 = never retried). */
  maxAttempts: number;
  intervalSeconds: number;
  backoffRate: number;
  maxDelaySeconds: number;
}

export const RETRY_TABLE: Readonly<Record<FailureKind, RetryRule>> = {
  // Deterministic: the same input fails the same way again, so a retry only burns money.
  fatal: {
    kind: 'fatal',
    errorName: 'Seekframe.Fatal',
    awsErrorNames: [],
    maxAttempts: 0,
    intervalSeconds: 1,
    backoffRate: 1,
    maxDelaySeconds: 1,
  },
  // Account concurrency or S3 request rate: wait longer, more often.
  throttled: {
    kind: 'throttled',
    errorName: 'Seekframe.Throttled',
    awsErrorNames: ['Lambda.TooManyRequestsException'],
    maxAttempts: 6,
    intervalSeconds: 5,
    backoffRate: 2,
    maxDelaySeconds: 60,
  },
  // A chunk that ran out of time: one more try (a cold start may have eaten it), never more,
  // so one stuck chunk fails the render within 2 x the chunk timeout plus the backoff.
  timeout: {
    kind: 'timeout',
    errorName: 'Seekframe.Timeout',
    awsErrorNames: ['States.Timeout', 'Sandbox.Timedout'],
    maxAttempts: 1,
    intervalSeconds: 2,
    backoffRate: 2,
    maxDelaySeconds: 2,
  },
  // Crashed browser, reset socket, S3 internal error, Lambda service hiccup.
  transient: {
    kind: 'transient',
    errorName: 'Seekframe.Transient',
    awsErrorNames: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException'],
    maxAttempts: 2,
    intervalSeconds: 2,
    backoffRate: 2,
    maxDelaySeconds: 30,
  },
};

/** Order in which Step Functions must test the rules (the first match wins). */
export const RETRY_ORDER: readonly FailureKind[] = ['fatal', 'throttled', 'timeout', 'transient'];

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
  'page-script-error',
  'asset-not-found',
  'media-source-refused',
  'render-cancelled',
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

/** Decides the kind of any thrown value; SeekframeErrors keep their code, others get one. */
export function classifyFailure(thrown: unknown): Classified {
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
  const kindByName = kindOfErrorName(name);
  const kind: FailureKind = kindByName ?? (THROTTLE_NAMES.has(name) ? 'throttled' : 'transient');
  // Something nobody typed: retried like a transient failure, a bounded number of times.
  return { kind, error: { code: 'internal-error', message: `${name ? `${name}: ` : ''}${message}`, retryable: kind !== 'fatal' } };
}

function matchesTransient(message: string): boolean {
  return TRANSIENT_MESSAGES.some((needle) => message.includes(needle));
}

/** The kind an error name (ours or AWS's) stands for, or null when the table does not know it. */
export function kindOfErrorName(name: string): FailureKind | null {
  for (const kind of RETRY_ORDER) {
    const rule = RETRY_TABLE[kind];
    if (rule.errorName === name || rule.awsErrorNames.includes(name)) return kind;
  }
  return null;
}

/** Milliseconds to wait before retry number `retry` (1 = the first retry), as Step Functions does. */
export function retryDelayMs(rule: RetryRule, retry: number): number {
  const seconds = rule.intervalSeconds * rule.backoffRate ** Math.max(0, retry - 1);
  return Math.min(seconds, rule.maxDelaySeconds) * 1000;
}

/**
 * The error a Lambda handler throws: its `name` is the rule's error name (Step Functions matches
 * Retry/Catch on it) and its message is the SeekframeError JSON (the fail handler reads it back).
 */
export class LambdaFailure extends Error {
  readonly kind: FailureKind;
  readonly data: SeekframeErrorData;
  constructor(classified: Classified) {
    super(JSON.stringify(classified.error));
    this.name = RETRY_TABLE[classified.kind].errorName;
    this.kind = classified.kind;
    this.data = classified.error;
  }
}

/** Reads a SeekframeErrorData back from a failure message (ours is JSON; others are wrapped). */
export function failureData(name: string, message: string): SeekframeErrorData {
  try {
    const parsed = JSON.parse(message) as Partial<SeekframeErrorData>;
    if (parsed && typeof parsed.code === 'string' && typeof parsed.message === 'string') {
      return {
        code: parsed.code,
        message: parsed.message,
        retryable: parsed.retryable === true,
        ...(parsed.stage ? { stage: parsed.stage } : {}),
        ...(parsed.details ? { details: parsed.details } : {}),
      };
    }
  } catch {
    // not ours
  }
  if (kindOfErrorName(name) === 'timeout') {
    return {
      code: 'chunk-timeout',
      message: `A step ran out of time (${name}). Make chunks shorter (more chunks) or give the function more memory.`,
      retryable: true,
    };
  }
  return { code: 'internal-error', message: `${name}: ${message}`, retryable: false };
}
