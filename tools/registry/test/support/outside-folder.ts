import { existsSync } from 'node:fs';
import path from 'node:path';

/** Every `node_modules` folder in `dir`'s ancestors (not in `dir` itself): node would resolve from them. */
export async function nodeModulesAbove(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'node_modules'))) found.push(path.join(current, 'node_modules'));
    if (path.dirname(current) === current) return found;
  }
}
