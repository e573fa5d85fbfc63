import { scanCssFonts } from './css-font-usage.js';
import { collectDocumentFonts, locationAt, type LocatedFontStack } from './document-font-usage.js';
import { fontInstallCommand, fontPackageId } from './font-family-names.js';
import { parseGoogleFontsUrl } from './google-fonts-url.js';
import type { SourceLocation } from './html-tree.js';
import type { LintFinding } from './lint-finding.js';
import { lintSeverity } from './lint-rules.js';
import { normalizePosixPath, resolveSourcePath } from './posix-path.js';

export interface FontLintHost {
  readFile(path: string): Promise<string | undefined>;
  /** True when `@fontsource/<id>` can be served for this project. Without it, fonts are not linted. */
  fontPackageInstalled?(id: string): Promise<boolean>;
}

type Add = (file: string, at: SourceLocation, message: string) => void;

/**
 * `fonts/unresolved-family`: a family the composition names that no `@font-face` defines and no
 * installed `@fontsource` package provides, so the render falls back to a face that depends on
 * the machine. In a list, only the families before the first one that resolves matter (later ones
 * only fill in glyphs the first lacks). `reported` (lower-case names) keeps it to one warning per
 * family across the project.
 */
export async function lintFonts(
  file: string,
  html: string,
  rootDir: string,
  host: FontLintHost,
  reported: Set<string>,
): Promise<LintFinding[]> {
  const installed = host.fontPackageInstalled?.bind(host);
  if (!installed) return [];
  const findings: LintFinding[] = [];
  const add: Add = (at, location, message) =>
    findings.push({
      file: at,
      line: location.line,
      column: location.column,
      rule: 'fonts/unresolved-family',
      severity: lintSeverity('fonts/unresolved-family'),
      message,
    });
  const usage = collectDocumentFonts(html);
  const declared = new Set(usage.declared.map((n) => n.toLowerCase()));
  const stacks: (LocatedFontStack & { file: string })[] = usage.stacks.map((s) => ({ ...s, file }));
  const googleUrls = usage.googleUrls.map((g) => ({ ...g, file }));
  // Linked stylesheets (one level of @import is followed too).
  const queue = usage.stylesheets.map((s) => resolveSourcePath(file, s.href, rootDir));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const cssPath = normalizePosixPath(queue.shift() as string);
    if (seen.has(cssPath)) continue;
    seen.add(cssPath);
    const css = await host.readFile(cssPath);
    if (css === undefined) continue;
    const scan = scanCssFonts(css);
    for (const name of scan.declared) declared.add(name.toLowerCase());
    for (const stack of scan.stacks) stacks.push({ families: stack.families, location: locationAt(css, stack.offset), file: cssPath });
    for (const href of scan.imports) {
      if (parseGoogleFontsUrl(href)) googleUrls.push({ url: href, location: { line: 1, column: 1 }, file: cssPath });
      else if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) queue.push(resolveSourcePath(cssPath, href, rootDir));
    }
  }

  const cache = new Map<string, Promise<boolean>>();
  const resolves = (family: string): Promise<boolean> => {
    const id = fontPackageId(family);
    let answer = cache.get(id);
    if (!answer) cache.set(id, (answer = id ? installed(id) : Promise.resolve(false)));
    return answer;
  };
  const google = new Set<string>();
  for (const entry of googleUrls) {
    for (const { family } of parseGoogleFontsUrl(entry.url)?.families ?? []) {
      google.add(family.toLowerCase());
      if ((await resolves(family)) || reported.has(family.toLowerCase())) continue;
      reported.add(family.toLowerCase());
      add(
        entry.file,
        entry.location,
        `Google Fonts family "${family}" is not installed locally, so renders use a fallback face instead of fetching it; install it in the project folder: ${fontInstallCommand(family)}`,
      );
    }
  }
  for (const stack of stacks) {
    const unresolved: string[] = [];
    let resolvedBy: string | undefined;
    for (const family of stack.families) {
      const key = family.toLowerCase();
      if (declared.has(key) || google.has(key) || (await resolves(family))) {
        resolvedBy = family;
        break;
      }
      unresolved.push(family);
    }
    for (const family of unresolved) {
      if (reported.has(family.toLowerCase())) continue;
      reported.add(family.toLowerCase());
      const fallback = resolvedBy ? `"${resolvedBy}"` : 'whatever the machine has for the generic family';
      add(
        stack.file,
        stack.location,
        `font-family "${family}" is not loaded by any @font-face or Google Fonts link and no @fontsource package for it is installed, so text falls back to ${fallback} and may look different on every machine; ` +
          `install it in the project folder: ${fontInstallCommand(family)} (or load it with @font-face)`,
      );
    }
  }
  return findings;
}
