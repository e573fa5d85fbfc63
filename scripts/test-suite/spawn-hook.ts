import childProcess, { ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Called with the argv of every process this one starts (argv[0] the program as given) and the
 * PATH it is looked up in, before it starts; may throw to refuse it.
 */
export type SpawnListener = (argv: string[], searchPath: string | undefined) => void;

const listeners: SpawnListener[] = [];
let installed = false;

/**
 * Calls `listener` for every child process this process starts: spawn, exec, execFile and fork
 * all go through ChildProcess.prototype.spawn; the synchronous ones are wrapped one by one (and
 * the ES module bindings of node:child_process updated, so `import { spawnSync }` sees the
 * wrapper too). A listener that throws stops the start: the caller gets that error.
 */
export function onSpawn(listener: SpawnListener): void {
  listeners.push(listener);
  if (installed) return;
  installed = true;
  const notify = (argv: string[], searchPath: string | undefined): void => {
    for (const each of listeners) each(argv, searchPath);
  };
  const pathOf = (env: unknown): string | undefined =>
    env && typeof env === 'object' && 'PATH' in env ? String((env as { PATH: unknown }).PATH) : process.env.PATH;

  // Not in Node's types: the internal start every asynchronous child process goes through.
  const prototype = ChildProcess.prototype as unknown as {
    spawn(options: { file: string; args?: string[]; envPairs?: string[] }): unknown;
  };
  const spawn = prototype.spawn;
  prototype.spawn = function (this: ChildProcess, options) {
    // options.args is the whole argv (args[0] is argv0); options.file the program.
    const pair = options.envPairs?.find((entry) => entry.startsWith('PATH='));
    notify([options.file, ...(options.args ?? []).slice(1)], pair ? pair.slice(5) : options.envPairs ? undefined : process.env.PATH);
    return spawn.call(this, options);
  };

  const sync = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  const wrap = (name: 'spawnSync' | 'execFileSync' | 'execSync', argvOf: (args: unknown[]) => string[]): void => {
    const original = sync[name]!;
    sync[name] = (...args: unknown[]) => {
      const options = args.find((arg, i) => i > 0 && arg && typeof arg === 'object' && !Array.isArray(arg)) as
        | { env?: unknown }
        | undefined;
      notify(argvOf(args), pathOf(options?.env ?? process.env));
      return original(...args);
    };
  };
  const fileAndArgs = (args: unknown[]): string[] => [
    String(args[0]),
    ...(Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : []),
  ];
  wrap('spawnSync', fileAndArgs);
  wrap('execFileSync', fileAndArgs);
  wrap('execSync', (args) => ['/bin/sh', '-c', String(args[0])]);
  syncBuiltinESMExports();
}
