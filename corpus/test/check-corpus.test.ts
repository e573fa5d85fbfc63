import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBrowserPool, type BrowserPool } from '@seekframe/engine';
import { CHECK_RULES, checkComposition, CheckReportSchema, ruleOf, type CheckFinding, type CheckReport } from '@seekframe/producer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The check corpus keeps `seekframe check` honest both ways: every composition in corpus/check
 * (realistic ones, each rendered and looked at) has no error and exactly the warnings its
 * check.json expects, and every composition in corpus/check-broken/<code>/ gives exactly the
 * finding its folder names. One browser pool serves every check, so the suite launches one browser.
 */
const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Few frames: enough for every rule, and fast. A composition that needs more says so in check.json. */
const SAMPLES = 16;
/** A broken composition is two seconds with one thing wrong: fewer frames prove it. */
const BROKEN_SAMPLES = 8;

interface CaseOptions {
  format?: 'mp4' | 'webm' | 'mov' | 'png-sequence';
  samples?: number;
  variables?: Record<string, unknown>;
  /** `sandboxed`: checked as a server renders it. */
  network?: 'open' | 'sandboxed';
  /** Warnings a good composition gives on purpose (codes, sorted). */
  warnings?: string[];
}

function options(dir: string): CaseOptions {
  const file = path.join(dir, 'check.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseOptions) : {};
}

/** Folders under `root` that hold an index.html, as paths relative to it (`motion/static`). */
function compositions(root: string, under = ''): string[] {
  const here = path.join(root, under);
  if (existsSync(path.join(here, 'index.html'))) return [under];
  return readdirSync(here)
    .filter((name) => statSync(path.join(here, name)).isDirectory())
    .flatMap((name) => compositions(root, under ? `${under}/${name}` : name))
    .sort();
}

const good = compositions(path.join(CORPUS, 'check'));
const broken = compositions(path.join(CORPUS, 'check-broken'));

let pool: BrowserPool;
beforeAll(() => {
  pool = createBrowserPool({ maxBrowsers: 1 });
});
afterAll(async () => {
  await pool?.close();
});

async function check(dir: string, defaultSamples = SAMPLES): Promise<CheckReport> {
  const { format, samples, variables, network } = options(dir);
  const report = await checkComposition(
    {
      projectDir: dir,
      cwd: dir,
      maxSamples: samples ?? defaultSamples,
      ...(format ? { format } : {}),
      ...(variables ? { variables } : {}),
      ...(network ? { network } : {}),
    },
    { browsers: pool },
  );
  expect(CheckReportSchema.parse(report)).toEqual(report);
  // Each finding has the severity its rule documents (or one of the two a conditional rule names).
  for (const finding of report.findings) {
    const rule = ruleOf(finding.code);
    expect(rule, `${finding.code} is not in CHECK_RULES`).toBeDefined();
    if (rule!.severity === 'error' || rule!.severity === 'warning') expect(finding.severity, finding.code).toBe(rule!.severity);
  }
  return report;
}

const describeFinding = (f: CheckFinding): string => `${f.code} ${f.element?.selector ?? f.file?.path ?? ''}: ${f.message}`;

describe('corpus/check: realistic compositions pass with no error', () => {
  it('has at least 20 of them', () => {
    expect(good.length).toBeGreaterThanOrEqual(20);
  });

  it.each(good)('%s', async (name) => {
    const dir = path.join(CORPUS, 'check', name);
    const report = await check(dir);
    const errors = report.findings.filter((f) => f.severity === 'error').map(describeFinding);
    expect(errors).toEqual([]);
    const warnings = [...new Set(report.findings.filter((f) => f.severity === 'warning').map((f) => f.code))].sort();
    expect(warnings, report.findings.map(describeFinding).join('\n')).toEqual(options(dir).warnings ?? []);
    expect(report.ok).toBe(true);
    expect(report.sampledTimes.length).toBeGreaterThan(0);
  });
});

describe('corpus/check-broken: each composition fails with exactly its rule', () => {
  it.each(broken)('%s', async (code) => {
    const report = await check(path.join(CORPUS, 'check-broken', code), BROKEN_SAMPLES);
    expect([...new Set(report.findings.map((f) => f.code))], report.findings.map(describeFinding).join('\n')).toEqual([code]);
    const rule = ruleOf(code)!;
    if (rule.severity === 'error') expect(report.ok).toBe(false);
  });

  it('covers every rule of CHECK_RULES, or says why it cannot', () => {
    for (const [code, rule] of Object.entries(CHECK_RULES)) {
      const folders = broken.filter((folder) => ruleOf(folder) === rule);
      if ('noCatalogue' in rule) expect(folders, `${code} has a folder but says it cannot`).toEqual([]);
      else expect(folders.length, `corpus/check-broken has no composition for ${code}`).toBeGreaterThan(0);
    }
    // And no folder names a code the table does not know.
    for (const folder of broken) expect(ruleOf(folder), folder).toBeDefined();
  });
});
