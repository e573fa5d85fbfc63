import { fileURLToPath } from 'node:url';

/** The repository checkout this package sits in (src/contract-suite or dist/contract-suite, four levels down). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
