import { SeekframeError } from '@seekframe/composition';
import { inside } from './inside.js';
import { findPackageDir, parseCdnUrl, readManifest, versionMatches } from './resolve-cdn-url.js';

/** A package an npm CDN URL names that no search root has installed (in a version of the same major). */
export interface MissingCdnPackage {
  pkg: string;
  /** The version or range the URL asks for; undefined when it names none. */
  version: string | undefined;
  /** The version found installed, when one of another major is. */
  installed?: string;
  /** The command that answers the URL, run in the project folder. */
  install: string;
}

/**
 * Why resolveCdnUrl found nothing, when the reason is a package that is not installed (at all,
 * or in another major version); null for anything else (not a CDN URL, a file the installed
 * package lacks). Throws as parseCdnUrl does for a URL that names no package.
 */
export async function missingCdnPackage(url: string, searchRoots: readonly string[]): Promise<MissingCdnPackage | null> {
  const ref = parseCdnUrl(url);
  if (!ref) return null;
  const install = `npm i ${ref.pkg}${ref.version ? `@${ref.version}` : ''}`;
  const packageDir = await findPackageDir(ref.pkg, searchRoots);
  if (!packageDir) return { pkg: ref.pkg, version: ref.version, install };
  const manifestFile = await inside(packageDir, 'package.json');
  const manifest = manifestFile ? await readManifest(manifestFile) : null;
  const installed = String(manifest?.version ?? '');
  if (!manifest || versionMatches(ref.version, installed)) return null;
  return { pkg: ref.pkg, version: ref.version, installed, install };
}

/**
 * `package-not-installed`: one error per package (its message names no file, so a page that loads
 * three files of it gets one problem), with the command that answers every URL of it.
 */
export function packageNotInstalled(missing: MissingCdnPackage, url: string): SeekframeError {
  const named = `${missing.pkg}${missing.version ? `@${missing.version}` : ''}`;
  const found = missing.installed
    ? `the project has ${missing.pkg} ${missing.installed}, another major version`
    : `${missing.pkg} is not installed`;
  return new SeekframeError(
    'package-not-installed',
    `The composition loads ${named} from an npm CDN (jsDelivr or unpkg), whose URLs Seekframe answers only from installed packages, and ${found}. ` +
      `Install it in the project folder (next to its index.html): ${missing.install}`,
    {
      stage: 'serve',
      retryable: false,
      details: {
        package: missing.pkg,
        version: missing.version ?? null,
        install: missing.install,
        url,
        ...(missing.installed ? { installed: missing.installed } : {}),
      },
    },
  );
}

/**
 * The render's error for the packages its page could not load: one package, its own error; several,
 * one error naming them all with one command that installs every one.
 */
export function packagesNotInstalled(problems: readonly SeekframeError[]): SeekframeError | undefined {
  const packages = problems.filter((p) => p.code === 'package-not-installed');
  if (packages.length <= 1) return packages[0];
  const installs = packages.map((p) => String(p.details?.install ?? '').replace(/^npm i /, ''));
  const install = `npm i ${installs.join(' ')}`;
  return new SeekframeError(
    'package-not-installed',
    `The composition loads ${packages.length} packages from an npm CDN (jsDelivr or unpkg) that the project has not installed: ${installs.join(', ')}. ` +
      `Seekframe answers npm CDN URLs only from installed packages. Install them in the project folder (next to its index.html): ${install}`,
    { stage: 'serve', retryable: false, details: { install, packages: packages.map((p) => p.details) } },
  );
}
