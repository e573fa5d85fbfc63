import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkComposition, CheckReportSchema, type CheckReport } from '../src/index.js';
import { CHECK_PROJECTS, type CheckProjectName } from './helpers/check-projects.js';
import { ffmpegDroppingAlpha } from './helpers/ffmpeg-dropping-alpha.js';
import { tempProject } from './helpers/temp-project.js';

const projects = new Map<CheckProjectName, { dir: string; cleanup(): Promise<void> }>();

beforeAll(async () => {
  for (const name of Object.keys(CHECK_PROJECTS) as CheckProjectName[]) projects.set(name, await tempProject(CHECK_PROJECTS[name]));
});
afterAll(async () => {
  for (const project of projects.values()) await project.cleanup();
});

async function check(
  name: CheckProjectName,
  options: Partial<Parameters<typeof checkComposition>[0]> = {},
  context: Parameters<typeof checkComposition>[1] = {},
): Promise<CheckReport> {
  const dir = projects.get(name)!.dir;
  const report = await checkComposition({ projectDir: dir, cwd: dir, ...options }, context);
  // Whatever the composition, the document keeps its published shape.
  expect(CheckReportSchema.parse(report)).toEqual(report);
  return report;
}

const codes = (report: CheckReport): string[] => report.findings.map((f) => f.code);
const only = (report: CheckReport, code: string) => {
  const found = report.findings.filter((f) => f.code === code);
  expect(found, `${code} in ${JSON.stringify(codes(report))}`).toHaveLength(1);
  return found[0]!;
};

describe('seekframe check (real Chromium)', () => {
  it('passes a clean composition: every check ran, no findings, frames sampled', async () => {
    const report = await check('clean');
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ ok: true, entry: 'index.html', format: 'mp4', summary: { errors: 0, warnings: 0 } });
    expect(report.checks).toEqual({
      lint: { status: 'passed' },
      page: { status: 'passed' },
      motion: { status: 'passed' },
      layout: { status: 'passed' },
      contrast: { status: 'passed' },
      audio: { status: 'skipped', reason: 'no audible clip' },
      alpha: { status: 'skipped', reason: 'mp4 has no alpha channel' },
    });
    expect(report.sampledTimes.length).toBeGreaterThanOrEqual(4);
  });

  it('a GSAP timeline never registered: names the element, its time and the fix', async () => {
    const report = await check('gsapUnregistered');
    expect(report.ok).toBe(false);
    const finding = only(report, 'motion/gsap-unregistered');
    expect(finding).toMatchObject({
      check: 'motion',
      severity: 'error',
      element: { selector: '#box', label: '<div#box>' },
      time: { start: 0, end: 1.5 },
    });
    expect(finding.message).toMatch(
      /^A GSAP timeline that is not in window.__timelines animates <div#box> \(x\) 0.00-1.50 s, but it is paused and nothing seeks it/,
    );
    expect(finding.fix).toContain('window.__timelines["main"] = tl');
    expect(report.checks.motion.status).toBe('failed');
  });

  it('CSS animations stuck at their end: zero length, and over before the clip appears', async () => {
    const report = await check('cssStuck');
    const zero = only(report, 'motion/zero-duration');
    expect(zero).toMatchObject({ severity: 'warning', element: { selector: '#title' }, time: { start: 0, end: 0 } });
    expect(zero.message).toContain('CSS animation "rise" on <div#title> lasts 0 s');
    const early = only(report, 'motion/ends-before-clip');
    expect(early).toMatchObject({ severity: 'warning', element: { selector: '#badge' }, time: { start: 0, end: 0.5 } });
    expect(early.message).toContain('is on screen only from 1.00 s: the video shows only its end state');
    expect(early.fix).toContain('add 1.00 s to its animation-delay');
  });

  it('an element off screen for its whole clip', async () => {
    const report = await check('offScreen');
    const finding = only(report, 'motion/off-screen');
    expect(finding).toMatchObject({ severity: 'error', element: { selector: '#lost' }, time: { start: 0.5, end: 1.5 } });
    expect(finding.message).toContain('outside the 160x90 frame at every sampled time (its box: x 400..430, y 10..40)');
  });

  it('motion the timeline declares but the frames do not show (a transform on an inline element)', async () => {
    const report = await check('staticMotion');
    const finding = only(report, 'motion/static');
    expect(finding).toMatchObject({ severity: 'error', element: { selector: '#chip' }, time: { start: 0.5, end: 1.5 } });
    expect(finding.message).toMatch(
      /^<span#chip> is animated 0.50-1.50 s by The GSAP tween of __timelines\["main"\] \(x\), and its animated values change between the frames at .+, but the pixels of its area \(.+\) are identical in all of them\.$/,
    );
  });

  it('captions: a video of words only is sampled where they show (not blank); words off screen are found', async () => {
    const words = await check('captionsOnly');
    expect(words.findings).toEqual([]);
    expect(words.sampledTimes).toEqual(expect.arrayContaining([0.5, 1.3]));
    const lost = await check('captionsOffScreen');
    const finding = lost.findings.find((f) => f.code === 'motion/off-screen')!;
    expect(finding).toMatchObject({ severity: 'error', element: { selector: '#cap', label: '<div#cap>' } });
    expect(finding.message).toMatch(
      /^<div#cap> shows the transcript "transcript" but its words are outside the 160x90 frame at every sampled time \(x 400\.\./,
    );
    const empty = only(lost, 'motion/captions-empty');
    expect(empty).toMatchObject({ severity: 'warning', element: { selector: '#tiny' }, time: { start: 0.3, end: 0.7 } });
    expect(empty.message).toBe(
      '<div#tiny> shows the transcript "transcript", but nothing of it has a size at 0.50, 1.30 s, while a segment is active and the element is on screen: no caption appears in the video.',
    );
  });

  it("captions outside the caption element's clip: none shown is an error, some cut is a warning", async () => {
    const report = await check('captionsHidden');
    const never = only(report, 'motion/captions-never-shown');
    expect(never).toMatchObject({ severity: 'error', element: { selector: '#cap2' }, time: { start: 0.3, end: 1.5 } });
    expect(never.message).toBe(
      'The transcript "transcript" shown by <div#cap2> runs 0.30-1.50 s, but <div#cap2> is on screen 1.60-2.00 s (the composition ends there): no caption is ever seen.',
    );
    const cut = only(report, 'motion/captions-cut');
    expect(cut).toMatchObject({ severity: 'warning', element: { selector: '#cap1' }, time: { start: 1.2, end: 1.5 } });
    expect(cut.message).toContain(
      '1 of 2 segments of the transcript "transcript" (the first at 1.20-1.50 s) fall outside the time <div#cap1> is on screen 0.00-0.50 s',
    );
    expect(codes(report).filter((code) => code !== 'motion/captions-never-shown' && code !== 'motion/captions-cut')).toEqual([]);
  });

  it('a page script error names the file and line', async () => {
    const report = await check('scriptError');
    const finding = only(report, 'page/script-error');
    expect(finding).toMatchObject({ check: 'page', severity: 'error', file: { path: 'main.js', line: 3 } });
    expect(finding.message).toMatch(/^A script threw: TypeError: .*speed/);
    expect(report.checks.page.status).toBe('failed');
  });

  it('a failed request (a missing file) names the element that uses it; no duplicate from the browser', async () => {
    const report = await check('missingFile');
    const finding = only(report, 'page/missing-file');
    expect(finding).toMatchObject({ severity: 'error', element: { selector: '#logo' }, file: { path: 'index.html' } });
    expect(finding.message).toBe('logo.png does not exist in the project (used by index.html: #logo); a render fails on it.');
    const html = CHECK_PROJECTS.missingFile['index.html']!;
    expect(finding.file!.line).toBe(html.slice(0, html.indexOf('src="logo.png"')).split('\n').length);
    expect(codes(report).filter((c) => c.startsWith('page/'))).toEqual(['page/missing-file']);
    // The runtime does not get ready with a broken image (a render fails there too): no motion check.
    expect(report.checks.motion.status).toBe('skipped');
  });

  it('SVG gridlines faded in by opacity and a long-period stepped CSS animation: no finding (issue 37)', async () => {
    const report = await check('gridlinesAndLongPeriod');
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a blank composition', async () => {
    const report = await check('blank');
    expect(only(report, 'motion/blank')).toMatchObject({ severity: 'error', element: null, details: { colour: '#000000' } });
  });
});

describe('seekframe check: alpha of transparent formats', () => {
  it('alpha kept in a webm sample render passes', async () => {
    const report = await check('transparent', { format: 'webm' });
    expect(report.checks.alpha).toEqual({ status: 'passed' });
    expect(report.ok).toBe(true);
  });

  it('alpha lost in a mov (encoded without alpha on purpose) is an error', async () => {
    const dir = projects.get('transparent')!.dir;
    const report = await check('transparent', { format: 'mov' }, { ffmpeg: await ffmpegDroppingAlpha(dir) });
    const finding = only(report, 'alpha/lost');
    expect(finding.severity).toBe('error');
    expect(finding.message).toMatch(
      /^The mov output of index.html lost its alpha channel: frame \d+ \([\d.]+ s\) is \d+% transparent in the page but 0% in the decoded mov/,
    );
    expect(report).toMatchObject({ ok: false, checks: { alpha: { status: 'failed' } } });
  });

  it('an opaque page rendered to a transparent format is a warning', async () => {
    const report = await check('clean', { format: 'png-sequence' });
    expect(only(report, 'alpha/opaque')).toMatchObject({ severity: 'warning' });
    expect(report).toMatchObject({ ok: true, checks: { alpha: { status: 'warnings' } } });
    const strict = await check('clean', { format: 'png-sequence', strict: true });
    expect(strict.ok).toBe(false);
  });
});
