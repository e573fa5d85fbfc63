import { fileURLToPath } from 'node:url';

/** docs/ and the repository root, wherever the scripts are run from. */
export const DOCS_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
export const REPO_DIR = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
