#!/usr/bin/env node
// Thin launcher: the CLI itself is compiled TypeScript in ../dist.
import { main } from '../dist/main.js';

main(process.argv).then(
  (code) => { process.exitCode = code; },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
