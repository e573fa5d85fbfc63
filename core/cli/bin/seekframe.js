#!/usr/bin/env node
// Thin launcher: the CLI itself is compiled TypeScript in ../dist. SIGINT/SIGTERM are caught
// before the rest of the CLI loads (a few hundred ms on a busy machine), so a signal at any
// moment ends a render with its message and nothing left behind (see listen-for-stops.ts).
import { listenForStops } from '../dist/listen-for-stops.js';

const stops = listenForStops();
// `seekframe render …` in ps and top instead of node and a path; also how a test can tell the
// signals are caught (the name changes right after).
process.title = ['seekframe', ...process.argv.slice(2)].join(' ');
const { main } = await import('../dist/main.js');

/** After a stop signal nothing may keep the process: once the command is done, it exits within a second. */
const exitSoon = () => setTimeout(() => process.exit(), 1_000).unref();

main(process.argv, {}, stops).then(
  (code) => {
    process.exitCode = code;
    if (stops.signal.aborted) exitSoon();
  },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
