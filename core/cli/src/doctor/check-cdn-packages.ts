import type { CheckResult } from './check-result.js';

export interface MissingPackage {
  pkg: string;
  version: string | undefined;
  installed?: string;
  install: string;
  /** The project files that load it, as the user sees them. */
  files: string[];
}

/**
 * `seekframe doctor <dir>`: the packages the project loads from npm CDNs (jsDelivr, unpkg) that
 * are not installed. A render answers those URLs only from installed packages, so each one fails
 * it: one line per package, then one command that installs them all.
 */
export function checkCdnPackages(missing: readonly MissingPackage[], project: string): CheckResult {
  const base = { id: 'cdn-packages', title: 'npm CDN packages' };
  if (missing.length === 0) return { ...base, status: 'ok', summary: `every package ${project} loads from an npm CDN is installed` };
  const named = missing.map(
    (m) =>
      `${m.pkg}${m.version ? `@${m.version}` : ''} (${m.installed ? `${m.installed} installed, another major` : 'not installed'}; loaded by ${m.files.join(', ')})`,
  );
  const install = `npm i ${missing.map((m) => m.install.replace(/^npm i /, '')).join(' ')}`;
  return {
    ...base,
    status: 'fail',
    summary: `${missing.length} package${missing.length === 1 ? '' : 's'} loaded from an npm CDN but not installed: ${named.join('; ')}`,
    fix: `In ${project}: ${install}`,
    details: {
      install,
      packages: missing.map(({ pkg, version, installed, install: one, files }) => ({
        package: pkg,
        version: version ?? null,
        ...(installed ? { installed } : {}),
        install: one,
        files,
      })),
    },
  };
}
