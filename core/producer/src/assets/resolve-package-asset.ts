import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { SeekframeError } from '@seekframe/composition';

export interface PackageAssetOptions {
  /** The command that makes the file, named in the error (`npm run build -w @seekframe/runtime`). */
  build: string;
  /** Where resolution starts (a file URL or path inside the package that asks); default: the producer. */
  from?: string | URL;
  /** What the file is, for the error message (`the runtime bundle`). */
  what?: string;
}

/**
 * The one way Seekframe finds a built file it ships (runtime bundle, player bundle, the preview
 * app): a package export (`@seekframe/runtime/bundle`) resolved through the package's own
 * `exports` map, as Node would, so a file moves in one place (its package.json). Fails with one
 * error, `bundle-missing`, naming the package and the command that builds the file.
 */
export function resolvePackageAsset(specifier: string, options: PackageAssetOptions): string {
  try {
    // require.resolve honours the exports map and checks that the file exists; unlike
    // import.meta.resolve it also works under vitest and for files that are not modules.
    return createRequire(options.from ?? import.meta.url).resolve(specifier);
  } catch (error) {
    const pkg = packageName(specifier);
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new SeekframeError(
      'bundle-missing',
      `${options.what ? `${capitalise(options.what)} (${specifier})` : specifier} is not there: ${reason}. It is a built file of ${pkg}; run \`${options.build}\` (or reinstall seekframe).`,
      { stage: 'serve', details: { package: pkg, specifier, build: options.build }, cause: error },
    );
  }
}

/** The file's text; the same error as `resolvePackageAsset` when it cannot be read. */
export async function readPackageAsset(specifier: string, options: PackageAssetOptions): Promise<string> {
  const file = resolvePackageAsset(specifier, options);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new SeekframeError(
      'bundle-missing',
      `${file} (${specifier}) cannot be read: ${error instanceof Error ? error.message : String(error)}. Run \`${options.build}\` (or reinstall seekframe).`,
      {
        stage: 'serve',
        details: { package: packageName(specifier), specifier, build: options.build },
        cause: error,
      },
    );
  }
}

/** `@seekframe/runtime/bundle` -> `@seekframe/runtime`; `seekframe/preview-app.js` -> `seekframe`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
