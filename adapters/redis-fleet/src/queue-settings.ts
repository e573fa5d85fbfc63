import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { SeekframeError } from '@seekframe/composition';
import type { RedisOptions } from 'bullmq';

/** The queue every Seekframe worker and submitter uses unless told otherwise (`--queue-name`, SEEKFRAME_QUEUE_NAME). */
export const DEFAULT_QUEUE_NAME = 'seekframe';

export interface QueueSettings {
  /** ioredis options for BullMQ (host, port, password, TLS, reconnection). */
  connection: RedisOptions;
  queueName: string;
  /** The URL without its password, for logs and messages. */
  display: string;
  /** Whether the server is on this machine (loopback): a plain, password-less queue is only fine there. */
  loopback: boolean;
  /** Set when the connection can be read by others on the network (plain redis:// off loopback) or written without a password. */
  warning?: string;
}

export interface QueueSettingsInput {
  /** `--queue`: redis://[user:password@]host[:port][/db] or rediss://… (TLS). Default REDIS_URL. */
  url?: string;
  /** `--queue-name`. Default SEEKFRAME_QUEUE_NAME, else "seekframe". */
  queueName?: string;
  /** Where to read REDIS_URL, REDIS_PASSWORD, REDIS_TLS_CA_FILE and SEEKFRAME_QUEUE_NAME (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** How the flag is named in messages (default --queue). */
  flag?: string;
}

const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function invalid(message: string, details?: Record<string, unknown>): SeekframeError {
  return new SeekframeError('invalid-options', message, { stage: 'config', ...(details ? { details } : {}) });
}

/**
 * The Redis connection of a fleet: read once from the flags and the environment (REDIS_URL,
 * REDIS_PASSWORD, REDIS_TLS_CA_FILE, SEEKFRAME_QUEUE_NAME), failing closed: a URL that is not
 * redis:// or rediss://, a password given twice and differently, a CA file that cannot be read,
 * or a queue name Redis keys cannot carry stops the start, naming the setting and the fix.
 *
 * The connection retries for ever (maxRetriesPerRequest null, a capped backoff): a Redis restart
 * pauses a worker, it never kills it; the submitter bounds the outage itself.
 */
export function queueSettings(input: QueueSettingsInput = {}): QueueSettings {
  const env = input.env ?? process.env;
  const flag = input.flag ?? '--queue';
  const raw = input.url ?? env.REDIS_URL;
  const source = input.url !== undefined ? flag : 'REDIS_URL';
  if (raw === undefined || raw.trim() === '')
    throw invalid(`No queue given: pass ${flag} redis://host:6379 (or rediss:// for TLS), or set REDIS_URL.`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(`${source} is not a URL ("${redact(raw)}"): write it as redis://[:password@]host[:port][/db] or rediss://… for TLS.`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw invalid(`${source} must start with redis:// or rediss:// (TLS), not ${url.protocol}//.`);
  if (!url.hostname) throw invalid(`${source} names no host: write it as redis://host:6379.`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d{1,2}$/.test(dbText)) throw invalid(`${source} ends with "/${dbText}": the path is a database number (0-15).`);
  const fromUrl = url.password === '' ? undefined : decodeURIComponent(url.password);
  const fromEnv = env.REDIS_PASSWORD === undefined || env.REDIS_PASSWORD === '' ? undefined : env.REDIS_PASSWORD;
  if (fromUrl !== undefined && fromEnv !== undefined && fromUrl !== fromEnv)
    throw invalid(
      `${source} carries a password and REDIS_PASSWORD another one: give it once (REDIS_PASSWORD keeps it out of process listings).`,
    );
  const password = fromUrl ?? fromEnv;
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const tls = url.protocol === 'rediss:';
  let ca: Buffer | undefined;
  const caFile = env.REDIS_TLS_CA_FILE;
  if (caFile !== undefined && caFile !== '') {
    if (!tls) throw invalid(`REDIS_TLS_CA_FILE is set but ${source} is redis:// (no TLS): use rediss://, or unset REDIS_TLS_CA_FILE.`);
    try {
      ca = readFileSync(caFile);
    } catch (error) {
      throw invalid(
        `REDIS_TLS_CA_FILE (${caFile}) cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): name a PEM file of the CA that signed the Redis server's certificate.`,
      );
    }
  }
  const queueName = input.queueName ?? env.SEEKFRAME_QUEUE_NAME ?? DEFAULT_QUEUE_NAME;
  if (!QUEUE_NAME.test(queueName))
    throw invalid(
      `The queue name "${queueName}" (${input.queueName !== undefined ? '--queue-name' : 'SEEKFRAME_QUEUE_NAME'}) must be 1-64 letters, digits, "-" or "_".`,
    );
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  const display = `${url.protocol}//${username ? `${username}@` : ''}${url.host}${dbText ? `/${dbText}` : ''}`;
  const connection: RedisOptions = {
    host,
    port,
    ...(dbText ? { db: Number(dbText) } : {}),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(tls ? { tls: { ...(isIP(host) ? {} : { servername: host }), ...(ca ? { ca } : {}) } } : {}),
    // BullMQ's workers need commands to wait through a reconnect rather than fail.
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 6), 5_000),
    connectionName: 'seekframe',
  };
  const warning = loopback
    ? undefined
    : !password
      ? `the queue ${display} has no password: anyone who can reach it can make the workers render any HTML (set requirepass and REDIS_PASSWORD)`
      : !tls
        ? `the queue ${display} is plain redis:// off this machine: its password and jobs cross the network unencrypted (use rediss://)`
        : undefined;
  return { connection, queueName, display, loopback, ...(warning ? { warning } : {}) };
}

function redact(text: string): string {
  return text.replace(/\/\/([^@/]*)@/, '//***@');
}
