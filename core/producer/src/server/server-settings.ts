/**
 * The producer server's settings as a user sets them: the option of `createProducerServer`, the
 * flag of `seekframe serve`, the environment variable, the default and what it does. One table:
 * the server reads its variables from it (server-options.ts), the CLI builds its flags from it,
 * and the manual's settings table is generated from it (with the render limits, render-limits.ts).
 * No Node import here: the CLI reads it without loading the server.
 */
export interface ServerSetting {
  /** The key in `createProducerServer(options)`. */
  option:
    | 'port'
    | 'host'
    | 'root'
    | 'maxConcurrentRenders'
    | 'maxQueuedRenders'
    | 'jobRetentionSeconds'
    | 'outputsDir'
    | 'authToken'
    | 'pageTimeoutMs'
    | 'warmBrowsers'
    | 'browserIdleSeconds';
  /** `seekframe serve` flag with its value, e.g. `--port <port>`; none for a setting only the environment carries (the token). */
  flag?: string;
  /** The variable read when neither option nor flag gives it. */
  env?: string;
  /** The default, as words. */
  default: string;
  /** What it does, with its range. */
  meaning: string;
}

export const SERVER_SETTINGS: readonly ServerSetting[] = [
  { option: 'port', flag: '--port <port>', env: 'PORT', default: '9847', meaning: 'port to listen on; 0 picks a free one' },
  {
    option: 'host',
    flag: '--host <host>',
    default: '127.0.0.1',
    meaning: 'address to bind; any address that is not loopback needs PRODUCER_AUTH_TOKEN, else the server refuses to start',
  },
  {
    option: 'root',
    flag: '--root <dir>',
    default: 'the current folder',
    meaning: 'folder that request projectDir paths are relative to; nothing outside it renders',
  },
  {
    option: 'maxConcurrentRenders',
    flag: '--max-concurrent-renders <n>',
    env: 'PRODUCER_MAX_CONCURRENT_RENDERS',
    default: '2',
    meaning: 'renders at once, 1-10; further requests wait in a FIFO queue',
  },
  {
    option: 'maxQueuedRenders',
    flag: '--max-queued-renders <n>',
    env: 'PRODUCER_MAX_QUEUED_RENDERS',
    default: '100',
    meaning: 'renders waiting at most, 0-10000; one more gets 429 too-many-renders with Retry-After',
  },
  {
    option: 'jobRetentionSeconds',
    flag: '--job-retention-seconds <s>',
    env: 'PRODUCER_JOB_RETENTION_SECONDS',
    default: '3600',
    meaning: 'how long GET /render/:id answers for a finished render, 0-604800; then 410 render-expired (the file stays at its outputUrl)',
  },
  { option: 'outputsDir', flag: '--outputs <dir>', default: '<root>/.seekframe/outputs', meaning: 'where finished files are kept' },
  {
    option: 'authToken',
    env: 'PRODUCER_AUTH_TOKEN',
    default: 'none (loopback only)',
    meaning: 'when set, every route needs Authorization: Bearer <token>; set but blank refuses to start',
  },
  {
    option: 'pageTimeoutMs',
    flag: '--page-timeout-ms <ms>',
    env: 'PRODUCER_PAGE_TIMEOUT_MS',
    default: '30000',
    meaning: 'longest wait for a page to load and become ready, and for one seek',
  },
  {
    option: 'warmBrowsers',
    flag: '--warm-browsers <n>',
    env: 'PRODUCER_WARM_BROWSERS',
    default: '2 per concurrent render',
    meaning: 'browsers kept open between renders, 0-32; 0 = each render starts its own',
  },
  {
    option: 'browserIdleSeconds',
    flag: '--browser-idle-seconds <s>',
    env: 'PRODUCER_BROWSER_IDLE_SECONDS',
    default: '60',
    meaning: 'close a warm browser after this long unused, 1-86400',
  },
];

/** The `seekframe serve` help text of a setting: what it does, then where its default comes from. */
export function serverSettingHelp(setting: ServerSetting): string {
  return `${setting.meaning} (default ${setting.env ? `${setting.env} or ` : ''}${setting.default})`;
}
