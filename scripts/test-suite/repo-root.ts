import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this file is in. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
