import validateNpmPackageName from 'validate-npm-package-name';
import { invalidArgument } from '../usage-error.js';

const RULE =
  'A project name becomes both the folder name and the npm package name: use lowercase letters, digits, ' +
  '"-", "." or "_", start with a letter or digit, no spaces or slashes, at most 214 characters (e.g. "my-video").';

/** Throws `invalid-argument` (exit 2) naming every broken rule; returns the name when usable. */
export function validateProjectName(name: string): string {
  const problems: string[] = [];
  // A scope ("@me/video") is a valid npm name but would create nested folders.
  if (name.includes('/') || name.includes('\\')) problems.push('name cannot contain "/" or "\\"');
  const result = validateNpmPackageName(name);
  if (!result.validForNewPackages) problems.push(...(result.errors ?? []), ...(result.warnings ?? []));
  if (problems.length === 0) return name;
  return fail(name, problems);
}

function fail(name: string, problems: string[]): never {
  const unique = [...new Set(problems)];
  throw invalidArgument('project-name', `Project name ${JSON.stringify(name)} can't be used: ${unique.join('; ')}. ${RULE}`, {
    value: name,
    problems: unique,
  });
}
