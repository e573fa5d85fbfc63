import { spawn } from 'node:child_process';
import { processTree } from '../../../../core/engine/src/system/pin-to-cpu.js';
import { freePort } from '../../src/free-port.js';
import type { UserShell } from './user-shell.js';

export { freePort };

export interface DevServer {
  baseUrl: string;
  /** The last lines it printed (for failure messages). */
  output(): string;
  /** SIGTERM to it and every process below it (renders included), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Every server started here and not stopped yet: ended with the test process at the latest. */
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) {
    for (const member of processTree(pid).reverse()) {
      try {
        process.kill(member, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
});

/**
 * `PORT=<free port> npm run <script>` in a project, as a user starts the template's local run;
 * ready when `readyPath` answers (anything but a server error). The default time limit stays under
 * the contract suite's 120 s hook limit, so a server that never answers is stopped by this code.
 */
export async function startDevServer(
  shell: UserShell,
  options: { cwd: string; script?: string; env?: Record<string, string>; readyPath?: string; timeoutMs?: number },
): Promise<DevServer> {
  const port = await freePort();
  const child = spawn('npm', ['run', options.script ?? 'dev'], {
    cwd: options.cwd,
    env: shell.env({ ...options.env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  if (child.pid !== undefined) running.add(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.pid === undefined || child.exitCode !== null) return;
    running.delete(child.pid);
    const tree = processTree(child.pid).reverse();
    const signal = (name: NodeJS.Signals): void => {
      for (const pid of tree) {
        try {
          process.kill(pid, name);
        } catch {
          // gone already
        }
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    // Children that outlived their parent (a render in its own session) get the same end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    signal('SIGKILL');
  };
  // Generous: the first start compiles the app (wrangler, next dev) and took 100 s on a loaded 2-core machine.
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`npm run ${options.script ?? 'dev'} exited (code ${child.exitCode}) before answering:\n${log}`);
    // The render API's own answer, any but a server error: with RENDER_API_TOKEN set,
    // /api/composition answers 401. Every answer of it carries x-request-id; a dev server still
    // starting its app (or anything else on the port) may answer 404 without it.
    const ok = await fetch(`${baseUrl}${options.readyPath ?? '/api/composition'}`).then(
      (response) => response.status < 500 && response.headers.has('x-request-id'),
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run ${options.script ?? 'dev'} did not answer ${baseUrl} in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { baseUrl, output: () => log, stop };
}

/**
 * One render through the contract as any template answers it: `POST /api/render` with
 * `Prefer: respond-async` (202 + statusUrl), then the status URL until the file comes (redirects
 * followed). Returns the file's bytes.
 */
export async function renderThroughApi(baseUrl: string, body: Record<string, unknown>, timeoutMs = 480_000): Promise<Uint8Array> {
  const started = await fetch(`${baseUrl}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });
  if (started.status !== 202) throw new Error(`POST /api/render answered ${started.status}: ${await started.text()}`);
  const { statusUrl } = (await started.json()) as { statusUrl: string };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(new URL(statusUrl, baseUrl));
    if (response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('video/'))
      return new Uint8Array(await response.arrayBuffer());
    if (response.status !== 202) throw new Error(`GET ${statusUrl} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    if (Date.now() > deadline) throw new Error(`the render behind ${statusUrl} did not finish in time`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
