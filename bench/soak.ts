/**
 * A long soak of the two server faces: `seekframe serve` and a template's render API (serveLocal,
 * as `npm run dev` of a template runs it), each in a process of its own, driven by two clients
 * each with a steady mix of renders (40%), cancels (20%), client disconnects mid-render (20%) and
 * bad requests (20%). Every minute the load pauses until nothing is in flight, and the soak prints
 * per server: resident memory, open file descriptors, browser processes (all, and main ones),
 * ffmpeg processes, Seekframe CLI children, plus the entries of the servers' private temp folder.
 * At the end: the first and last readings side by side and whether each stayed flat. A
 * measurement, nothing asserted here; the figures go to docs/guide/security.md.
 *
 *   npx tsx bench/soak.ts                          # 30 minutes
 *   npx tsx bench/soak.ts --minutes 3 --seed 7     # a short check
 *   npx tsx bench/soak.ts --job-retention-seconds 60  # serve forgets finished jobs after a minute
 *
 * Uses the built packages (run `npx turbo run build` first, and do not rebuild while it runs: the
 * servers load modules and start CLI processes from dist/ the whole time). Linux only (reads /proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seekframeBin } from 'seekframe/bin-path';
import { countEntries, cpuSeconds, loadAverage, sampleProcess, type ProcessSample } from './soak/process-sample.js';
import { apiAction, seeded, serveAction, type Outcome, type Random } from './soak/soak-load.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const minutes = Number(arg('--minutes') ?? 30);
const sampleSeconds = Number(arg('--sample-seconds') ?? 60);
const seed = Number(arg('--seed') ?? Date.now() % 100_000);
/** `seekframe serve --job-retention-seconds`: finished jobs it keeps answering for (default: the server's, 3600). */
const jobRetention = arg('--job-retention-seconds');
const TOKEN = 'soak-token-3b9e1c';
/** Set when the soak itself stops the servers (their exit is then expected). */
let stopping = false;
/** Every server started, so an early stop leaves none running. */
const children: ChildProcess[] = [];

const frame = (id: string, size: number, duration: number, fps: number): string => `<!doctype html>
<html data-composition-id="${id}" data-width="${size}" data-height="${size}" data-duration="${duration}" data-fps="${fps}">
<head><meta charset="utf-8"><style>html,body{margin:0;width:${size}px;height:${size}px;overflow:hidden;background:#123}
div{width:${size / 2}px;height:${size / 2}px;background:#e33;animation:m ${duration}s linear both}@keyframes m{to{transform:translateX(${size / 2}px)}}</style></head>
<body><div></div></body></html>
`;

/** Starts a server process; resolves with it and the URL it printed. */
async function start(command: string, args: string[], env: NodeJS.ProcessEnv, urlOf: (line: string) => string | undefined) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk}`.slice(-4000)));
  // A server that dies mid-soak is the finding: say how, with what it last printed, and stop.
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.log(`\nSERVER EXITED: ${args.slice(0, 3).join(' ')} (pid ${child.pid}) code ${code} signal ${signal}\n${stderr}`);
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exit(1);
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const found = urlOf(line);
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it listened: ${stderr}`)));
  });
  return { child, url };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'seekframe-soak-'));
  // The servers' own temp folder: profiles, render temps and inline projects land here, so a
  // leftover is counted, and other programs on the machine are not.
  const serverTmp = join(work, 'tmp');
  const root = join(work, 'root');
  for (const [name, html] of [
    ['tiny', frame('tiny', 64, 0.5, 10)],
    ['long', frame('long', 64, 3, 30)],
  ] as const) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'index.html'), html);
  }
  mkdirSync(serverTmp);
  const composition = join(work, 'api-composition');
  mkdirSync(composition);
  writeFileSync(
    join(composition, 'index.html'),
    frame('api', 96, 1, 10).replace(
      '<html ',
      `<html data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hi","maxLength":24},{"id":"size","type":"number","label":"Size","default":20,"min":10,"max":60}]' `,
    ),
  );
  const env = { ...process.env, TMPDIR: serverTmp };
  const serve = await start(
    process.execPath,
    [seekframeBin, 'serve', '--port', '0', '--root', root, ...(jobRetention ? ['--job-retention-seconds', jobRetention] : [])],
    env,
    (line) => /serving (http:\/\/\S+)/.exec(line)?.[1],
  );
  const api = await start(
    process.execPath,
    ['--import', 'tsx', join(here, 'soak/serve-render-api.ts')],
    // Only in the environment, as a user sets them: the token, a short retention so the store's
    // sweep runs within the soak, the default of two renders at once.
    { ...env, SOAK_COMPOSITION_DIR: composition, RENDER_API_TOKEN: TOKEN, RENDER_RETENTION_SECONDS: '120' },
    (line) => (line.startsWith('{') ? (JSON.parse(line) as { url: string }).url : undefined),
  );
  const servers: Array<{ name: string; child: ChildProcess }> = [
    { name: 'serve', child: serve.child },
    { name: 'api', child: api.child },
  ];

  const random: Random = seeded(seed);
  const counts = new Map<string, number>();
  const unexpected: string[] = [];
  let paused: Promise<void> | null = null;
  let inFlight = 0;
  let idle: (() => void) | null = null;
  const deadline = Date.now() + minutes * 60_000;
  const record = (outcome: Outcome): void => {
    const key = `${outcome.kind} ${outcome.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (outcome.unexpected) unexpected.push(outcome.unexpected);
  };
  const client = async (act: () => Promise<Outcome>): Promise<void> => {
    while (Date.now() < deadline) {
      if (paused) await paused;
      inFlight++;
      try {
        record(await act());
      } finally {
        inFlight--;
        if (inFlight === 0) idle?.();
      }
    }
  };

  const rows: Array<{ minute: number; serve: ProcessSample; api: ProcessSample; temp: number; load: string }> = [];
  const startedAt = Date.now();
  const cpuAtStart = servers.map((s) => cpuSeconds(s.child.pid!));
  const header =
    'min | serve: rss MB  fds  browsers(main/all)  ffmpeg | api: rss MB  fds  browsers(main/all)  ffmpeg  cli | temp | requests | load';
  console.log(`soak: ${minutes} min, seed ${seed}, sample every ${sampleSeconds} s; servers in ${work}`);
  console.log(header);
  const sampler = (async () => {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(sampleSeconds * 1000, Math.max(0, deadline - Date.now()))));
      // Quiesce: no new actions, wait for the ones in flight, then read (a reading mid-render
      // would count a render's browser and ffmpeg, not a leak).
      let resume!: () => void;
      paused = new Promise((resolve) => (resume = resolve));
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      idle = null;
      // Cancelled renders and closed connections finish their clean-up a moment after the answer.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const row = {
        minute: Math.round((Date.now() - startedAt) / 60_000),
        serve: sampleProcess(serve.child.pid!),
        api: sampleProcess(api.child.pid!),
        temp: countEntries(serverTmp),
        load: loadAverage(),
      };
      rows.push(row);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const s = row.serve;
      const a = row.api;
      console.log(
        `${String(row.minute).padStart(3)} | ${String(s.rssMB).padStart(12)} ${String(s.fds).padStart(4)}  ${`${s.browsers}/${s.browserProcesses}`.padStart(18)}  ${String(s.ffmpeg).padStart(6)} | ${String(a.rssMB).padStart(10)} ${String(a.fds).padStart(4)}  ${`${a.browsers}/${a.browserProcesses}`.padStart(18)}  ${String(a.ffmpeg).padStart(6)}  ${String(a.nodeChildren).padStart(3)} | ${String(row.temp).padStart(4)} | ${String(total).padStart(8)} | ${row.load}`,
      );
      paused = null;
      resume();
    }
  })();
  await Promise.all([
    client(() => serveAction(serve.url, random)),
    client(() => serveAction(serve.url, random)),
    client(() => apiAction(api.url, TOKEN, random)),
    client(() => apiAction(api.url, TOKEN, random)),
    sampler,
  ]);
  const cpu = servers.map((s, i) => `${s.name} ${(cpuSeconds(s.child.pid!) - cpuAtStart[i]!).toFixed(0)} s`);

  console.log('\nrequests by outcome:');
  for (const [key, n] of [...counts.entries()].sort()) console.log(`  ${key.padEnd(40)} ${n}`);
  console.log(`unexpected answers: ${unexpected.length}`);
  for (const line of unexpected.slice(0, 20)) console.log(`  ${line}`);
  summarize(rows);
  console.log(`server CPU (own process, user+system): ${cpu.join(', ')}; load average at the end ${loadAverage()}`);

  stopping = true;
  for (const { child } of servers) child.kill('SIGTERM');
  await Promise.all(
    servers.map(({ child }) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))),
  );
  const left = readdirSync(serverTmp);
  console.log(`after both servers stopped: temp entries ${left.length}${left.length ? ` (${left.join(', ')})` : ''}`);
  rmSync(work, { recursive: true, force: true });
}

/** First reading after the warm-up (the second) against the last, and the largest seen. */
function summarize(rows: Array<{ serve: ProcessSample; api: ProcessSample; temp: number }>): void {
  if (rows.length < 3) {
    console.log('too few readings to compare (run at least 3 sample periods)');
    return;
  }
  const first = rows[1]!;
  const last = rows.at(-1)!;
  console.log('\nfirst reading after warm-up (minute 2) vs last, and the largest:');
  for (const server of ['serve', 'api'] as const) {
    for (const field of ['rssMB', 'fds', 'browsers', 'browserProcesses', 'ffmpeg', 'nodeChildren'] as const) {
      const max = Math.max(...rows.map((r) => r[server][field]));
      console.log(
        `  ${`${server}.${field}`.padEnd(24)} ${String(first[server][field]).padStart(6)} -> ${String(last[server][field]).padStart(6)}  (max ${max})`,
      );
    }
  }
  console.log(
    `  ${'temp entries'.padEnd(24)} ${String(first.temp).padStart(6)} -> ${String(last.temp).padStart(6)}  (max ${Math.max(...rows.map((r) => r.temp))})`,
  );
}

await main().catch((error: unknown) => {
  // A soak that fails stops its servers too.
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  throw error;
});
