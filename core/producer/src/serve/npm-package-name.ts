/// <reference path="../types/validate-npm-package-name.d.ts" />
import validateNpmPackageName from 'validate-npm-package-name';

/**
 * True when `name` is a package name npm accepts (`gsap`, `@scope/pkg`; capitals allowed, as in
 * names published before npm's 2014 rules, e.g. `JSONStream`), and each of its parts is a plain
 * folder name: no part is empty or starts with "." (npm lets a scope such as `@..` through),
 * none holds a separator, "%" or a control character. A name that passes can be joined under a
 * `node_modules` folder without leaving it.
 */
export function isNpmPackageName(name: string): boolean {
  if (typeof name !== 'string' || !validateNpmPackageName(name).validForOldPackages) return false;
  const parts = name.split('/');
  if (parts.length > 2 || (parts.length === 2 && !parts[0]!.startsWith('@'))) return false;
  return parts.every((part) => {
    const plain = part.startsWith('@') && parts.length === 2 ? part.slice(1) : part;
    // eslint-disable-next-line no-control-regex
    return plain !== '' && !plain.startsWith('.') && !/[\\/%\u0000-\u001f\u007f]/.test(plain);
  });
}
