import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Writes a throw-away project folder; `cleanup()` removes it. */
export async function tempProject(files: Record<string, string | Buffer>): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-producer-test-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A composition root document of the given size and duration around `body`. */
export function composition(opts: {
  id?: string;
  width?: number;
  height?: number;
  duration: number;
  fps?: number;
  variables?: unknown[];
  head?: string;
  body: string;
}): string {
  const attrs = [
    `data-composition-id="${opts.id ?? 'main'}"`,
    `data-width="${opts.width ?? 160}"`,
    `data-height="${opts.height ?? 90}"`,
    `data-duration="${opts.duration}"`,
    ...(opts.fps ? [`data-fps="${opts.fps}"`] : []),
    ...(opts.variables ? [`data-composition-variables='${JSON.stringify(opts.variables)}'`] : []),
  ];
  return `<!doctype html>
<html ${attrs.join(' ')}>
<head><meta charset="utf-8"><style>html,body{margin:0;width:${opts.width ?? 160}px;height:${opts.height ?? 90}px;overflow:hidden;background:#000}</style>${opts.head ?? ''}</head>
<body>${opts.body}</body>
</html>
`;
}
