import type { BlockState, FailableState, RetryArgs, StateBlocks } from './state-machine.js';

/**
 * A stand-in for SST's StepFunctions building blocks that serialises the same calls to Amazon
 * States Language JSON the way SST's state classes do (JSONata states, Next/End, Retry, Catch,
 * inline Map). Used to snapshot the workflow and by tests; SST itself does this at deploy time.
 */
abstract class AslState implements FailableState {
  protected nextState: AslState | undefined;
  protected retries: RetryArgs[] = [];
  protected catches: { next: AslState; errors: string[] }[] = [];
  constructor(
    readonly name: string,
    protected readonly args: Record<string, unknown>,
  ) {}

  next<T extends BlockState>(state: T): T {
    if (this.nextState) throw new Error(`"${this.name}" already has a next state.`);
    this.nextState = state as unknown as AslState;
    return state;
  }
  retry(args?: RetryArgs): FailableState {
    this.retries.push({ errors: ['States.ALL'], interval: '1 seconds', maxAttempts: 3, backoffRate: 2, ...args });
    return this;
  }
  catch(state: BlockState, args: { errors?: string[] } = {}): FailableState {
    this.catches.push({ next: state as unknown as AslState, errors: args.errors ?? ['States.ALL'] });
    return this;
  }
  serialize(): Record<string, unknown> {
    return {
      [this.name]: this.toJSON(),
      ...this.nextState?.serialize(),
      ...Object.assign({}, ...this.catches.map((c) => c.next.serialize())),
    };
  }
  protected abstract body(): Record<string, unknown>;
  protected toJSON(): Record<string, unknown> {
    const terminal = this instanceof FailState;
    return clean({
      ...this.body(),
      QueryLanguage: 'JSONata',
      Output: this.args.output,
      Assign: this.args.assign,
      ...(terminal ? {} : this.nextState ? { Next: this.nextState.name } : { End: true }),
      Retry: this.retries.length
        ? this.retries.map((r) =>
            clean({
              ErrorEquals: r.errors,
              IntervalSeconds: seconds(r.interval),
              MaxAttempts: r.maxAttempts,
              BackoffRate: r.backoffRate,
              MaxDelaySeconds: r.maxDelay ? seconds(r.maxDelay) : undefined,
            }),
          )
        : undefined,
      Catch: this.catches.length ? this.catches.map((c) => ({ ErrorEquals: c.errors, Next: c.next.name })) : undefined,
    });
  }
}

class PassState extends AslState {
  protected body() {
    return { Type: 'Pass' };
  }
}
class FailState extends AslState {
  protected body() {
    return { Type: 'Fail', Error: this.args.error, Cause: this.args.cause };
  }
}
class TaskState extends AslState {
  protected body() {
    return {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke',
      TimeoutSeconds: this.args.timeout ? seconds(this.args.timeout as string) : undefined,
      Arguments: { FunctionName: this.args.function, Payload: this.args.payload },
    };
  }
}
class MapState extends AslState {
  protected body() {
    const processor = this.args.processor as AslState;
    return {
      Type: 'Map',
      Items: this.args.items,
      ItemSelector: this.args.itemSelector,
      ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: processor.name, States: processor.serialize() },
      MaxConcurrency: this.args.maxConcurrency,
    };
  }
}

export const aslBlocks: StateBlocks<string> = {
  pass: (args) => new PassState(args.name, args),
  lambdaInvoke: (args) => new TaskState(args.name, args),
  map: (args) => new MapState(args.name, args),
  fail: (args) => new FailState(args.name, args),
};

/** The whole state machine definition from its first state, as SST hands it to AWS. */
export function toStateMachineDefinition(start: BlockState): { StartAt: string; States: Record<string, unknown> } {
  const head = start as unknown as AslState;
  return { StartAt: head.name, States: head.serialize() };
}

function seconds(text: string): number {
  const match = /^(\d+(?:\.\d+)?) seconds?$/.exec(text);
  if (!match) throw new Error(`Not a duration in seconds: ${text}`);
  return Number(match[1]);
}

function clean(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
