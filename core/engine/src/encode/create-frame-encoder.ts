import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { SeekframeError } from '@seekframe/composition';
import { commitOutput, FOLDER_FILES, prepareTemp, removeTemp, sweepStaleTemps, tempPathFor } from '../system/atomic-output.js';
import { buildEncoderArgs } from './encoder-args.js';
import { parseEncoderOptions, type EncoderOptions, type OutputFormat } from './encoder-options.js';
import { ffmpegPath } from '../system/ffmpeg-paths.js';
import { tailLines } from '../system/run-process.js';

export interface EncodeResult {
  format: OutputFormat;
  /** The final file (or folder for png-sequence and hls). */
  output: string;
  /** Bytes written (for png-sequence: all frames plus audio; for hls: the playlist and its segments). */
  size: number;
  /** Frames handed to write(). GIF above 30 fps keeps fewer. */
  frames: number;
}

export interface FrameEncoder {
  /** ffmpeg's process id once started (for resource monitoring); undefined before/without one. */
  readonly pid: number | undefined;
  /**
   * Resolves once ffmpeg accepted the frame into its pipe buffer (waits for 'drain'). `written`
   * is called once every byte of `frame` is in the pipe, so its memory may be reused; never when
   * the write failed.
   */
  write(frame: Buffer, written?: () => void): Promise<void>;
  /**
   * Closes the input and waits for ffmpeg to finish encoding, without publishing the output yet:
   * a caller can let ffmpeg flush its last frames while it still checks for late errors (and
   * closes browsers), then call finish() or abort(). Safe to call more than once.
   */
  drain(): Promise<void>;
  /**
   * Where ffmpeg writes until finish() publishes it (a folder for png-sequence): complete once
   * drain() resolved, so a caller can check the encoded file (its alpha, say) before it is
   * published, and abort() instead of publishing a wrong one.
   */
  readonly encodedPath: string;
  /** Closes the input (if drain() did not), waits for ffmpeg and moves the temp output into place. */
  finish(): Promise<EncodeResult>;
  /** Kills ffmpeg and removes the temp output. Safe at any time, also after a failure. */
  abort(): Promise<void>;
  /**
   * Resolves with `ffmpeg-exited` the moment ffmpeg dies on its own (crash, kill, bad input),
   * without waiting for the next write; never settles otherwise. Lets a caller whose frames are
   * slow to come stop at once instead of at the next frame.
   */
  readonly died: Promise<SeekframeError>;
}

type FfmpegChild = ChildProcessByStdio<Writable, null, Readable>;
type FfmpegExit = { code: number | null; signal: NodeJS.Signals | null };
const STDERR_KEEP = 64 * 1024;

/**
 * One ffmpeg process fed with encoded frames over stdin. Output is written to a temp name beside
 * the target and renamed only after ffmpeg exits 0, so a failed or cancelled render never leaves
 * a half-written file behind.
 */
export function createFrameEncoder(input: EncoderOptions): FrameEncoder {
  const opts = parseEncoderOptions(input);
  const output = path.resolve(opts.output);
  // png-sequence and hls write a folder: its temp twin is renamed into place once complete.
  const isFolder = opts.format === 'png-sequence' || opts.format === 'hls' ? FOLDER_FILES[opts.format] : false;
  const temp = tempPathFor(output);
  const args = buildEncoderArgs({ ...opts, output }, temp);
  const ffmpeg = ffmpegPath(opts.ffmpeg);

  let stderr = (): string => '';
  let frames = 0;
  let failure: SeekframeError | undefined;
  let state: 'running' | 'draining' | 'finishing' | 'done' | 'aborted' = 'running';
  let draining: Promise<void> | undefined;
  let finishCalled = false;
  let child: FfmpegChild | undefined;
  const { promise: exited, resolve: resolveExit } = settleable<FfmpegExit>();
  const { promise: died, resolve: resolveDied } = settleable<SeekframeError>();

  const started = (async () => {
    try {
      await prepareTemp(temp, output, isFolder);
      // Leftovers of renders that were killed hard (no chance to clean up) go now.
      await sweepStaleTemps(path.dirname(output));
    } catch (error) {
      failure = prepareError(output, error);
      resolveExit({ code: null, signal: null });
      return;
    }
    const spawned = spawnFfmpeg(ffmpeg, args);
    const proc = spawned.proc;
    child = proc;
    stderr = spawned.stderr;
    proc.on('error', (error) => {
      failure ??= startError(ffmpeg, error);
      resolveExit({ code: null, signal: null });
    });
    // A killed ffmpeg is reported on 'exit' (nothing more to read from it); one that failed on its
    // own on 'close', once its last stderr lines are in. Either way also when no frame is being written.
    proc.on('exit', (code, signal) => {
      if (signal && state !== 'aborted') resolveDied((failure ??= exitError(code, signal)));
    });
    proc.on('close', (code, signal) => {
      if (code !== 0 && state !== 'aborted') resolveDied((failure ??= exitError(code, signal)));
      resolveExit({ code, signal });
    });
  })();

  const exitError = (code: number | null, signal: NodeJS.Signals | null): SeekframeError =>
    ffmpegExitError({ code, signal }, stderr(), output, opts.format, frames);

  // If ffmpeg dies on its own, the temp output is removed at once: no partial file ever remains.
  const cleanup = exited.then(async () => {
    if (failure) await removeTemp(temp);
  });

  const closedError = (call: string): SeekframeError =>
    encoderClosedError(`${call} after ${state === 'aborted' ? 'abort()' : 'finish()'}`, output);

  const fail = async (): Promise<never> => {
    await cleanup;
    throw failure!;
  };

  const encoder: FrameEncoder = {
    died,
    get pid() {
      return child?.pid;
    },

    async write(frame, written) {
      if (state !== 'running') throw closedError('write()');
      await started;
      if (failure || !child) return fail();
      const stdin = child!.stdin;
      frames++;
      const accepted = written
        ? stdin.write(frame, (error) => {
            if (!error) written();
          })
        : stdin.write(frame);
      if (accepted) return;
      // Backpressure: wait until ffmpeg drained its pipe, or until it died.
      await Promise.race([new Promise<void>((resolve) => stdin.once('drain', resolve)), exited]);
      if (failure) return fail();
    },

    drain() {
      draining ??= (async () => {
        if (state !== 'running') throw closedError('drain()');
        state = 'draining';
        await started;
        if (failure || !child) return fail();
        if (frames === 0) {
          state = 'aborted';
          child.kill('SIGKILL');
          await exited;
          await removeTemp(temp);
          throw noFramesError(output);
        }
        child.stdin.end();
        const { code } = await exited;
        if (failure) return fail();
        if (code !== 0) throw closedError('drain()'); // abort() killed it meanwhile
      })();
      return draining;
    },

    encodedPath: temp,

    async finish() {
      if (finishCalled) throw encoderClosedError('finish() called twice', output);
      finishCalled = true;
      await encoder.drain();
      if (state !== 'draining') throw closedError('finish()');
      state = 'finishing';
      try {
        const size = await commitOutput(temp, output, isFolder);
        state = 'done';
        return { format: opts.format, output, size, frames };
      } catch (error) {
        await removeTemp(temp);
        throw commitError(opts.format, output, error);
      }
    },

    async abort() {
      if (state === 'done' || state === 'aborted') return;
      state = 'aborted';
      await started;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await removeTemp(temp);
    },
  };
  return encoder;
}

// The errors and the promise helper need nothing of an encoder's state but their arguments, so they
// live out here; the closure above keeps the process, the frame count and the life cycle. See
// "Stateful objects" in docs/contributing/architecture.md.

/** Starts ffmpeg reading frames from stdin; `stderr()` is the tail of what it printed so far. */
function spawnFfmpeg(ffmpeg: string, args: string[]): { proc: FfmpegChild; stderr: () => string } {
  const proc = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  // EPIPE after ffmpeg died: the exit handler reports it with ffmpeg's own words.
  proc.stdin.on('error', () => undefined);
  return { proc, stderr: () => stderr };
}

/** A promise with its resolve function, for an event that settles it later. */
function settleable<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function prepareError(output: string, error: unknown): SeekframeError {
  return new SeekframeError(
    'output-write-failed',
    `Cannot write beside ${output}: ${error instanceof Error ? error.message : String(error)}. Check the folder exists and is writable.`,
    { stage: 'output', cause: error },
  );
}

function startError(ffmpeg: string, error: Error): SeekframeError {
  return new SeekframeError(
    'ffmpeg-not-found',
    `Could not start ffmpeg (${ffmpeg}): ${error.message}. Install it (\`apt-get install ffmpeg\`) or set SEEKFRAME_FFMPEG.`,
    { stage: 'encode', cause: error },
  );
}

/** ffmpeg ended badly: how, after how many frames, and its last words. */
function ffmpegExitError(
  { code, signal }: FfmpegExit,
  stderr: string,
  output: string,
  format: OutputFormat,
  frames: number,
): SeekframeError {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const tail = tailLines(stderr);
  return new SeekframeError(
    'ffmpeg-exited',
    `ffmpeg ${how} while encoding ${output} (${format}) after ${frames} frames.` +
      (tail ? `\nLast ffmpeg output:\n${tail}` : ' It printed nothing; check memory and disk space.'),
    { stage: 'encode', retryable: Boolean(signal), details: { output, frames, frame: frames, code, signal } },
  );
}

/** `what` (a call made too late) on a finished or aborted encoder. */
function encoderClosedError(what: string, output: string): SeekframeError {
  return new SeekframeError('encoder-closed', `${what} on the encoder for ${output}.`, { stage: 'encode' });
}

function noFramesError(output: string): SeekframeError {
  return new SeekframeError('no-frames', `No frames were written to ${output}; nothing to encode.`, { stage: 'encode' });
}

function commitError(format: OutputFormat, output: string, error: unknown): SeekframeError {
  return new SeekframeError(
    'output-write-failed',
    `Could not move the finished ${format} into ${output}: ${error instanceof Error ? error.message : String(error)}`,
    {
      stage: 'output',
      cause: error,
    },
  );
}
