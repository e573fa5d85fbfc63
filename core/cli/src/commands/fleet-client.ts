import { SeekframeError } from '@seekframe/composition';
import type { RenderEvent } from '@seekframe/producer';

/**
 * The part of `@seekframe/redis-fleet` the CLI uses, typed here so the CLI neither builds
 * against the adapter nor loads BullMQ until `seekframe worker`, `render --queue` or
 * `serve --queue` runs: the module is imported on demand, like `@seekframe/aws-lambda` for
 * `seekframe lambda`, and `seekframe` without it still works for everything else.
 */
export interface QueueSettings {
  queueName: string;
  display: string;
  loopback: boolean;
  warning?: string;
}

export interface FleetStore {
  display: string;
  /** The adapter's DistributedStore (its type stays in the adapter). */
  store: unknown;
}

export type FleetEvent =
  | { type: 'planned'; renderId: string; chunks: number; totalFrames: number; fps: number }
  | { type: 'queued'; renderId: string }
  | { type: 'chunk-progress'; chunk: number; framesRendered: number; frames: number; worker: string }
  | { type: 'chunk-done'; chunk: number; frames: number; worker: string; reused: boolean }
  | { type: 'chunk-failed'; chunk: number; reason: string }
  | { type: 'assembling' };

export interface FleetWorker {
  readonly id: string;
  ready(): Promise<void>;
  close(graceMs?: number): Promise<void>;
}

export interface FleetModule {
  queueSettings(input: { url?: string; queueName?: string; env?: NodeJS.ProcessEnv; flag?: string }): QueueSettings;
  fleetStore(input: { store?: string; env?: NodeJS.ProcessEnv; cwd?: string }): FleetStore;
  probeQueue(settings: QueueSettings, timeoutMs: number): Promise<void>;
  startFleetWorker(options: {
    queue: QueueSettings;
    store: unknown;
    concurrency?: number;
    limits?: Record<string, number>;
    warmBrowsers?: number;
    browserIdleSeconds?: number;
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    maxStalledCount?: number;
    onLog?: (line: string) => void;
  }): Promise<FleetWorker>;
  renderOnFleet(options: {
    queue: QueueSettings;
    store: unknown;
    projectDir: string;
    output: string;
    request?: Record<string, unknown>;
    limits?: Record<string, number>;
    chunkFrames?: number;
    signal?: AbortSignal;
    onEvent?: (event: FleetEvent) => void;
    keepInStore?: boolean;
  }): Promise<{ renderId: string; output: string; frames: number; chunks: number }>;
  serveFleetApi(options: {
    compositionDir: string;
    queue: QueueSettings;
    store: unknown;
    port?: number;
    host?: string;
    dataDir?: string;
    env?: NodeJS.ProcessEnv;
    chunkFrames?: number;
  }): Promise<{ url: string; close(): Promise<void> }>;
  /** Fleet events as the producer's RenderEvents (the progress bar). */
  fleetProgressEvents(): (event: FleetEvent) => RenderEvent | null;
  LOCK_DURATION_MS: number;
  STALLED_INTERVAL_MS: number;
  MAX_STALLED_COUNT: number;
}

// A variable keeps TypeScript from resolving the adapter at build time (see above).
const FLEET_MODULE = '@seekframe/redis-fleet';

export async function loadFleet(command: string): Promise<FleetModule> {
  try {
    return (await import(FLEET_MODULE)) as FleetModule;
  } catch (error) {
    throw new SeekframeError(
      'bundle-missing',
      `${command} needs the @seekframe/redis-fleet package (npm install @seekframe/redis-fleet): ${error instanceof Error ? error.message : String(error)}`,
      { stage: 'config' },
    );
  }
}
