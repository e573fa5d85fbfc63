#!/usr/bin/env node
// `npm create seekframe@latest <project-name> [-- --template <name>]` runs this command: it is
// `seekframe init` itself (same arguments, output and exit codes), from the CLI package at the
// same version.
import { main } from 'seekframe';

main([process.argv[0], 'seekframe', 'init', ...process.argv.slice(2)]).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
