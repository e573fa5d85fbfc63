import type { SeekframeErrorData } from '@seekframe/composition';
import { classifyFailure as classifyCore, FATAL_CODES, type Classified, type FailureKind } from '@seekframe/producer/distributed';

export { FATAL_CODES, type Classified, type FailureKind };

/**
 * One retry table for the Step Functions definition and the local fan-out runner: what kind of
 * failure an error is, and how often / how late each kind is tried again.
 */

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
 * Decides the kind of any thrown value (the core's rule, @seekframe/producer/distributed), with
 * this table's error names (ours and AWS's) known first.
 */
export function classifyFailure(thrown: unknown): Classified {
  return classifyCore(thrown, kindOfErrorName);
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
