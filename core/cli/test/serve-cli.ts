import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import os from 'node:os';
import { seekframeBin } from './interrupt-cli.js';

/** Reads SSE messages from POST /render/stream until the server ends the stream. */
export async function* sse(url: string, body: unknown): AsyncGenerator<{ type: string; [key: string]: unknown }> {
  const response = await fetch(`${url}/render/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data.slice(6)) as { type: string };
    }
  }
}

/** `seekframe serve --port 0 <args>` in `cwd`, in its own process; `url` resolves once it listens. */
export function startServe(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcessWithoutNullStreams; url: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, [seekframeBin, 'serve', '--port', '0', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: os.homedir(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('close', () => reject(new Error(`serve exited: ${text}`)));
  });
  return { child, url, output: () => text };
}

/**
 * A composition (32x32, 0.2 s at 10 fps) whose frame 1 waits until gate.txt beside it says "go":
 * the render stays in capture until the test lets it finish (or the server cancels it).
 */
export const GATED_COMPOSITION = `<!doctype html><html data-composition-id="g" data-width="32" data-height="32" data-duration="0.2" data-fps="10"><head></head>
<body><div style="width:32px;height:32px;background:#36f"></div><script>
const ticker = new Worker(URL.createObjectURL(new Blob(['setInterval(() => postMessage(0), 25)'], { type: 'text/javascript' })));
window.__seekframe.onSeek(async (t) => {
  if (t === 0) return;
  while ((await fetch('gate.txt', { cache: 'no-store' }).then((r) => r.text()).catch(() => '')).trim() !== 'go') {
    await new Promise((resolve) => ticker.addEventListener('message', resolve, { once: true }));
  }
});
</script></body></html>`;
