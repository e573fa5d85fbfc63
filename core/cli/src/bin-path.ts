import { fileURLToPath } from 'node:url';

/**
 * The `seekframe` launcher of this installed package (bin/seekframe.js): run it as
 * `node <seekframeBin> render ...`. Exported on its own (`seekframe/bin-path`) so a host that
 * starts the CLI as a child process, such as a render API template, finds it without loading the
 * CLI, and so packages below the CLI need not depend on it to find it.
 */
export const seekframeBin = fileURLToPath(new URL('../bin/seekframe.js', import.meta.url));
