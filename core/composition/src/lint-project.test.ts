import { describe, expect, test } from 'vitest';
import { formatFinding, type LintFinding } from './lint-finding.js';
import { lintProject } from './lint-project.js';

const ROOT = 'data-composition-id="main" data-width="640" data-height="360" data-duration="4"';

/** A composition file: root attributes on <html>, `body` inside <body>. */
function page(body: string, attrs = ROOT): string {
  return `<!doctype html>\n<html ${attrs}>\n<body>\n${body}\n</body>\n</html>\n`;
}

async function lint(files: Record<string, string>, entry = 'index.html'): Promise<LintFinding[]> {
  const reads: string[] = [];
  const findings = await lintProject(entry, {
    readFile: async (path) => {
      reads.push(path);
      return files[path];
    },
  });
  // Each file is read (and linted) once, however often it is embedded.
  expect(new Set(reads).size).toBe(reads.length);
  return findings;
}

const summary = (findings: LintFinding[]) => findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}`);

describe('lintProject — one bad fixture per rule', () => {
  test('project/missing-entry', async () => {
    expect(summary(await lint({}, 'nope.html'))).toEqual(['nope.html:1:1 error project/missing-entry']);
  });

  test('root/missing-root', async () => {
    expect(summary(await lint({ 'index.html': '<p>hi</p>' }))).toEqual(['index.html:1:1 error root/missing-root']);
  });

  test.each([
    ['data-composition-id="m" data-height="1" data-duration="1"', 'root/missing-width'],
    ['data-composition-id="m" data-width="1" data-duration="1"', 'root/missing-height'],
    ['data-composition-id="m" data-width="1" data-height="1"', 'root/missing-duration'],
    ['data-composition-id="m" data-width="-5" data-height="1" data-duration="1"', 'root/invalid-width'],
    ['data-composition-id="m" data-width="1" data-height="abc" data-duration="1"', 'root/invalid-height'],
    ['data-composition-id="m" data-width="1" data-height="1" data-duration="0"', 'root/invalid-duration'],
    ['data-composition-id="m" data-width="1" data-height="1" data-duration="1" data-fps="0"', 'root/invalid-fps'],
  ])('%s -> %s', async (attrs, rule) => {
    const findings = await lint({ 'index.html': page('', attrs) });
    expect(findings.map((f) => `${f.severity} ${f.rule}`)).toEqual([`error ${rule}`]);
    expect(findings[0]?.line).toBe(2);
  });

  test('root/missing-id is a warning', async () => {
    expect(summary(await lint({ 'index.html': page('', 'data-width="1" data-height="1" data-duration="1"') }))).toEqual([
      'index.html:2:1 warning root/missing-id',
    ]);
  });

  const withVariables = (json: string) => ({ 'index.html': page('', `${ROOT} data-composition-variables='${json}'`) });
  // Third column: the text the finding must point at (line:col inside the JSON); '' = the attribute.
  test.each([
    ['[{"id":"a",}]', 'variables/malformed-json', '}]'],
    ['{"id":"a"}', 'variables/not-array', ''],
    ['[42]', 'variables/not-object', '42'],
    ['[{"id":"a","type":"string","default":"x"}]', 'variables/missing-field', '{"id"'],
    ['[{"id":"a","type":"date","label":"A","default":"x"}]', 'variables/unknown-type', '"type"'],
    ['[{"id":"a","type":"number","label":"A","default":"5"}]', 'variables/default-type', '"default"'],
    ['[{"id":"a","type":"number","label":"A","default":50,"max":10}]', 'variables/default-type', '"default"'],
    [
      '[{"id":"a","type":"boolean","label":"A","default":true},{"id":"a","type":"boolean","label":"B","default":false}]',
      'variables/duplicate-id',
      '"id":"a","type":"boolean","label":"B"',
    ],
    ['[{"id":"a","type":"enum","label":"A","default":"x","options":[]}]', 'variables/enum-empty', '"options"'],
    [
      '[{"id":"a","type":"enum","label":"A","default":"x","options":[{"value":"x","label":"X"},{"value":"x","label":"Y"}]}]',
      'variables/enum-duplicate-option',
      '"value":"x","label":"Y"',
    ],
    ['[{"id":"a","type":"string","label":"A","default":"x","maxLength":-1}]', 'variables/invalid-field', '"maxLength"'],
  ])('%s -> %s', async (json, rule, pointAt) => {
    const findings = await lint(withVariables(json));
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.rule}`)).toEqual([`index.html:2 error ${rule}`]);
    const line = `<html ${ROOT} data-composition-variables='${json}'>`;
    const column = pointAt ? line.indexOf(json) + json.indexOf(pointAt) + 1 : ROOT.length + 8;
    expect(findings[0]?.column).toBe(column);
  });

  test('variable findings still locate the right line in a multi-line attribute', async () => {
    const json = '[\n  {"id":"a","type":"color","label":"A","default":"#fff"}\n]';
    const findings = await lint(withVariables(json));
    const column = '  {"id":"a","type":"color","label":"A",'.length + 1;
    expect(summary(findings)).toEqual([`index.html:3:${column} error variables/default-type`]);
  });

  test('with entity-encoded JSON the finding falls back to the attribute', async () => {
    const attrs = `${ROOT} data-composition-variables="[{&quot;id&quot;:&quot;a&quot;,&quot;type&quot;:&quot;boolean&quot;,&quot;label&quot;:&quot;A&quot;,&quot;default&quot;:1}]"`;
    expect(summary(await lint({ 'index.html': page('', attrs) }))).toEqual([
      `index.html:2:${ROOT.length + 8} error variables/default-type`,
    ]);
  });

  test('timing/unknown-ref, timing/cycle, timing/missing-duration, timing/invalid-start', async () => {
    const body = [
      '<div id="a" data-start="intro" data-duration="1"></div>',
      '<div id="b" data-start="c + 1" data-duration="1"></div>',
      '<div id="c" data-start="b" data-duration="1"></div>',
      '<div id="v" data-start="0"></div>',
      '<div data-start="v"></div>',
      '<div data-start="1s"></div>',
    ].join('\n');
    const findings = await lint({ 'index.html': page(body) });
    expect(summary(findings)).toEqual([
      'index.html:4:1 error timing/unknown-ref',
      'index.html:5:1 error timing/cycle',
      'index.html:8:1 error timing/missing-duration',
      'index.html:9:1 error timing/invalid-start',
    ]);
    expect(findings[1]?.message).toContain('b -> c -> b');
    expect(findings[3]?.message).toContain('<div> at 9:1');
  });

  test('timing/follows-media: following media without data-duration is a note (the render measures it)', async () => {
    const body =
      '<video id="v" src="v.mp4"></video>\n<p data-start="v + 1" data-duration="1"></p>\n<p data-start="a"></p>\n<audio id="a" src="a.mp3"></audio>';
    const findings = await lint({ 'index.html': page(body) });
    expect(summary(findings)).toEqual(['index.html:5:1 info timing/follows-media', 'index.html:6:1 info timing/follows-media']);
    expect(findings[0]?.message).toContain('add data-duration to "v"');
  });

  test('a missing src file is reported at every host that embeds it, and read once', async () => {
    const body =
      '<div data-composition-id="a" data-composition-src="gone.html"></div>\n<div data-composition-id="b" data-composition-src="gone.html"></div>';
    expect(summary(await lint({ 'index.html': page(body) }))).toEqual([
      'index.html:4:1 error subcomposition/missing-src-file',
      'index.html:5:1 error subcomposition/missing-src-file',
    ]);
  });

  test('timing/overlap is a warning; timing/invalid-duration and timing/invalid-track-index', async () => {
    const body = [
      '<div id="a" data-start="0" data-duration="2" data-track-index="0"></div>',
      '<div id="b" data-start="1" data-duration="2" data-track-index="0"></div>',
      '<div data-start="0" data-duration="two"></div>',
      '<div data-start="0" data-track-index="first"></div>',
    ].join('\n');
    expect(summary(await lint({ 'index.html': page(body) }))).toEqual([
      'index.html:5:1 warning timing/overlap',
      'index.html:6:21 error timing/invalid-duration',
      'index.html:7:21 warning timing/invalid-track-index',
    ]);
  });

  test('timing/after-end warns about clips that start after the composition ends', async () => {
    const body = '<p id="late" data-start="4" data-duration="1"></p>\n<p data-start="late + 0.5"></p>\n<p data-start="3.9"></p>';
    const findings = await lint({ 'index.html': page(body) });
    expect(summary(findings)).toEqual(['index.html:4:1 warning timing/after-end', 'index.html:5:1 warning timing/after-end']);
    expect(findings[1]?.message).toContain('<p> starts at 5.5s');
  });

  test('media/malformed-color-grading, media/invalid-color-grading, variables/unknown-reference, variables/reference-type', async () => {
    const vars =
      '[{"id":"warmth","type":"number","label":"Warmth","default":0.2},{"id":"title","type":"string","label":"Title","default":"Hi"}]';
    const body = [
      `<video src="a.mp4" data-color-grading='{"adjust":{"temperature":"$warmth","tint":"\${tnt}","exposure":"$title"}}'></video>`,
      `<video src="b.mp4" data-color-grading='{"adjust":{"contrast":1.1,}}'></video>`,
      `<img src="c.png" data-color-grading='{"contrast":1.1,"adjust":{"saturation":3}}'>`,
      `<p data-color-grading='{"preset":"warm"}'></p>`,
    ].join('\n');
    const findings = await lint({ 'index.html': page(body, `${ROOT} data-composition-variables='${vars}'`) });
    const lines = body.split('\n');
    const col = (line: number, text: string) => (lines[line] as string).indexOf(text) + 1;
    expect(summary(findings)).toEqual([
      `index.html:4:${col(0, '"tint"')} error variables/unknown-reference`,
      `index.html:4:${col(0, '"exposure"')} error variables/reference-type`,
      // JSON.parse stops at the stray "}" after the trailing comma.
      `index.html:5:${col(1, ',}') + 1} error media/malformed-color-grading`,
      `index.html:6:${col(2, '"contrast"')} error media/invalid-color-grading`,
      `index.html:6:${col(2, '"saturation"')} error media/invalid-color-grading`,
      `index.html:7:4 warning media/color-grading-ignored`,
    ]);
    expect(findings[0]?.message).toContain('declared: warmth, title');
    expect(findings[1]?.message).toContain('declared as string');
    expect(findings[3]?.message).toContain('belongs inside "adjust"');
    expect(findings[4]?.message).toContain('from 0 to 2');
  });

  test('data-captions: variables/unknown-reference and variables/reference-type, each file against its own declarations', async () => {
    const vars =
      '[{"id":"talk","type":"captions","label":"Talk","default":[]},{"id":"title","type":"string","label":"Title","default":"Hi"}]';
    const body = [
      '<div data-captions="talk"></div>',
      '<div data-captions="speech"></div>',
      '<div data-captions="title"></div>',
      '<div data-composition-id="kid" data-composition-src="kid.html" data-duration="1"></div>',
    ].join('\n');
    const kid = page('<p data-captions="talk"></p>', 'data-composition-id="kid" data-width="640" data-height="360" data-duration="1"');
    const findings = await lint({ 'index.html': page(body, `${ROOT} data-composition-variables='${vars}'`), 'kid.html': kid });
    expect(summary(findings)).toEqual([
      'index.html:5:6 error variables/unknown-reference',
      'index.html:6:6 error variables/reference-type',
      'kid.html:4:4 error variables/unknown-reference',
    ]);
    expect(findings[0]?.message).toBe(
      'data-captions="speech" names no variable of this composition; name one of "talk", or declare {"id":"speech","type":"captions","label":"Captions","default":[]} in data-composition-variables',
    );
    expect(findings[1]?.message).toContain('names a variable of type string; the caption element shows a variable of type "captions"');
    // The child declares nothing: a host's variables do not reach into it by name.
    expect(findings[2]?.message).toMatch(/^data-captions="talk" names no variable of this composition; declare /);
  });

  test('media/missing-lut and media/invalid-lut (through the LintHost), a LUT named by a variable default', async () => {
    const vars = '[{"id":"look","type":"string","label":"Look","default":"luts/broken.cube"}]';
    const body = [
      `<img src="a.png" data-color-grading='{"lut":"luts/nope.cube"}'>`,
      `<img src="b.png" data-color-grading='{"lut":"$look"}'>`,
      `<img src="c.png" data-color-grading='{"lut":"luts/ok.cube"}'>`,
      `<img src="d.png" data-color-grading='{"lut":"https://example.com/x.cube"}'>`,
    ].join('\n');
    const ok = ['LUT_3D_SIZE 2', ...Array.from({ length: 8 }, () => '0 0 0')].join('\n');
    const findings = await lint({
      'index.html': page(body, `${ROOT} data-composition-variables='${vars}'`),
      'luts/ok.cube': ok,
      'luts/broken.cube': 'LUT_3D_SIZE 2\n0 0 0\n',
    });
    expect(summary(findings)).toEqual([
      `index.html:4:${(body.split('\n')[0] as string).indexOf('"lut"') + 1} error media/missing-lut`,
      `index.html:5:${(body.split('\n')[1] as string).indexOf('"lut"') + 1} error media/invalid-lut`,
      `index.html:7:${(body.split('\n')[3] as string).indexOf('"lut"') + 1} error media/missing-lut`,
    ]);
    expect(findings[0]?.message).toContain('luts/nope.cube, which does not exist');
    expect(findings[1]?.message).toContain('LUT_3D_SIZE 2 needs 8');
  });

  test('media/invalid-media-start', async () => {
    expect(summary(await lint({ 'index.html': page('<audio src="a.mp3" data-media-start="later"></audio>') }))).toEqual([
      'index.html:4:20 error media/invalid-media-start',
    ]);
  });

  const child = (vars: string) =>
    page('', `data-composition-id="card" data-width="320" data-height="180" data-duration="2" data-composition-variables='${vars}'`);
  const cardVars =
    '[{"id":"title","type":"string","label":"Title","default":"Card","maxLength":10},{"id":"tone","type":"enum","label":"Tone","default":"warm","options":[{"value":"warm","label":"Warm"},{"value":"cool","label":"Cool"}]}]';

  test('subcomposition/missing-src-file', async () => {
    const findings = await lint({ 'index.html': page('<div data-composition-id="c" data-composition-src="scenes/missing.html"></div>') });
    expect(summary(findings)).toEqual(['index.html:4:1 error subcomposition/missing-src-file']);
    expect(findings[0]?.message).toContain('scenes/missing.html');
  });

  test('messages name files from the project folder, never by the absolute path they have on the machine', async () => {
    const root = '/srv/seekframe-job-1a2b/project';
    const findings = await lint(
      {
        [`${root}/index.html`]: page(
          '<div data-composition-id="c" data-composition-src="scenes/missing.html"></div>\n<div data-composition-id="d" data-composition-src="../../etc/passwd"></div>\n<div data-color-grading=\'{"lut":"luts/missing.cube"}\'></div>',
        ),
      },
      `${root}/index.html`,
    );
    const messages = findings.map((f) => f.message);
    expect(messages.some((m) => m.includes('points to scenes/missing.html'))).toBe(true);
    expect(messages.some((m) => m.includes('points to ../../etc/passwd'))).toBe(true);
    expect(messages.some((m) => m.includes('points to luts/missing.cube'))).toBe(true);
    for (const message of messages) expect(message).not.toContain('/srv/');
  });

  test('subcomposition/missing-id is a warning', async () => {
    expect(
      summary(await lint({ 'index.html': page('<div data-composition-src="card.html"></div>'), 'card.html': child(cardVars) })),
    ).toEqual(['index.html:4:1 warning subcomposition/missing-id']);
  });

  test('subcomposition/malformed-values', async () => {
    const findings = await lint({
      'index.html': page(`<div data-composition-id="c" data-composition-src="card.html" data-variable-values='{title: "x"}'></div>`),
      'card.html': child(cardVars),
    });
    // Points at the character JSON.parse stopped on.
    expect(summary(findings)).toEqual(['index.html:4:86 error subcomposition/malformed-values']);
  });

  test('subcomposition/undeclared-variable (warning) and subcomposition/variable-type (a warning too: the value is passed as given, as a top-level one is)', async () => {
    const host = `<div data-composition-id="c" data-composition-src="card.html" data-variable-values='{"titel":"x","title":7,"tone":"hot"}'></div>`;
    const findings = await lint({ 'index.html': page(host), 'card.html': child(cardVars) });
    // Each finding points at its key inside data-variable-values.
    const at = (key: string) => host.indexOf(`"${key}"`) + 1;
    expect(summary(findings)).toEqual([
      `index.html:4:${at('titel')} warning subcomposition/undeclared-variable`,
      `index.html:4:${at('title')} warning subcomposition/variable-type`,
      `index.html:4:${at('tone')} warning subcomposition/variable-type`,
    ]);
    expect(findings[0]?.message).toContain('declared: title, tone');
    expect(findings[2]?.message).toContain('"warm", "cool"');
  });

  test('no undeclared-variable warnings while the child’s own declarations are broken', async () => {
    const findings = await lint({
      'index.html': page(`<div data-composition-id="c" data-composition-src="card.html" data-variable-values='{"tone":"warm"}'></div>`),
      'card.html': child('[{"id":"tone","type":"enum","label":"Tone","default":"warm","options":[]}]'),
    });
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.rule}`)).toEqual(['card.html:2 error variables/enum-empty']);
  });

  test('subcomposition/cycle names the chain (a embeds b embeds a)', async () => {
    const findings = await lint({
      'index.html': page('<div data-composition-id="a" data-composition-src="a.html"></div>'),
      'a.html': page('<div data-composition-id="b" data-composition-src="sub/b.html"></div>', ROOT.replace('main', 'a')),
      'sub/b.html': page('<div data-composition-id="back" data-composition-src="../a.html"></div>', ROOT.replace('main', 'b')),
    });
    expect(summary(findings)).toEqual(['sub/b.html:4:1 error subcomposition/cycle']);
    expect(findings[0]?.message).toContain('a.html -> sub/b.html -> a.html');
  });

  test('a file embedding itself is a cycle, also below the entry', async () => {
    const findings = await lint({ 'index.html': page('<div data-composition-id="me" data-composition-src="./index.html"></div>') });
    expect(summary(findings)).toEqual(['index.html:4:1 error subcomposition/cycle']);
    expect(findings[0]?.message).toContain('index.html -> index.html;');
    const nested = await lint({
      'index.html': page('<div data-composition-id="a" data-composition-src="a.html"></div>'),
      'a.html': page('<div data-composition-id="again" data-composition-src="a.html"></div>', ROOT.replace('main', 'a')),
    });
    expect(summary(nested)).toEqual(['a.html:4:1 error subcomposition/cycle']);
    expect(nested[0]?.message).toContain(': a.html -> a.html;');
  });
});

describe('lintProject — behaviour', () => {
  test('findings in child files carry the child path; each child is linted once even if embedded twice', async () => {
    const findings = await lint({
      'index.html': page(
        '<div data-composition-id="one" data-composition-src="card.html"></div>\n<div data-composition-id="two" data-composition-src="card.html"></div>',
      ),
      'card.html': page('<div data-start="ghost"></div>', 'data-composition-id="card" data-width="1" data-height="1" data-duration="1"'),
    });
    expect(summary(findings)).toEqual(['card.html:4:1 error timing/unknown-ref']);
  });

  test('a host without data-duration lasts as long as its child, so clips can follow it', async () => {
    const findings = await lint({
      'index.html': page(
        '<div data-composition-id="card1" data-composition-src="card.html"></div>\n<p data-start="card1 + 0.5" data-duration="1" data-track-index="0"></p>',
      ),
      'card.html': page('', 'data-composition-id="card" data-width="1" data-height="1" data-duration="2"'),
    });
    expect(findings).toEqual([]);
  });

  test('remote data-composition-src URLs are not read', async () => {
    expect(
      await lint({ 'index.html': page('<div data-composition-id="r" data-composition-src="https://example.test/x.html"></div>') }),
    ).toEqual([]);
  });

  test('formatFinding prints file:line:col severity rule message', () => {
    expect(formatFinding({ file: 'a/b.html', line: 3, column: 7, rule: 'timing/overlap', severity: 'warning', message: 'move it' })).toBe(
      'a/b.html:3:7 warning timing/overlap move it',
    );
  });
});

describe('lintProject — HyperFrames sub-compositions', () => {
  const child = (script: string) =>
    `<!doctype html><html><body><template id="card-template"><style>#root{position:absolute;inset:0}</style>
<div id="root" data-composition-id="card" data-width="160" data-height="90"><p class="x">card</p></div>
<script>${script}</script></template></body></html>`;
  const host = (attrs: string) =>
    page(`<div data-composition-id="card" data-composition-src="card.html" data-start="0" ${attrs}></div>
<p id="after" data-start="card" data-duration="1">after</p>`);

  test("a child root without data-duration takes the host's: no finding", async () => {
    expect(summary(await lint({ 'index.html': host('data-duration="2"'), 'card.html': child('') }))).toEqual([]);
  });

  test('neither has one but the child registers a timeline: a note saying the timeline decides, not a problem', async () => {
    const findings = await lint({
      'index.html': host(''),
      'card.html': child('window.__timelines = window.__timelines || {}; window.__timelines["card"] = gsap.timeline({ paused: true });'),
    });
    expect(summary(findings)).toEqual([
      'index.html:4:1 info subcomposition/duration-from-timeline',
      'index.html:5:1 info timing/follows-timeline',
    ]);
    expect(findings[0]?.message).toContain('window.__timelines');
  });

  test('an anime.js timeline registered with hyperframesAnime.register counts too', async () => {
    const findings = await lint({
      'index.html': host(''),
      'card.html': child('hyperframesAnime.register("card", anime.createTimeline({ autoplay: false }));'),
    });
    expect(summary(findings)).toContain('index.html:4:1 info subcomposition/duration-from-timeline');
    expect(summary(findings).some((f) => f.includes('error'))).toBe(false);
  });

  test('nothing decides the length: a warning that says what the render would do', async () => {
    const findings = await lint({ 'index.html': host(''), 'card.html': child('') });
    expect(summary(findings)).toContain('index.html:4:1 warning subcomposition/missing-duration');
    expect(findings.find((f) => f.rule === 'subcomposition/missing-duration')?.message).toMatch(/would last 0 s and never show/);
  });

  test("the template root's nested hosts are linted too (three deep)", async () => {
    const level = (n: number, inner: string) =>
      `<html><body><template><div data-composition-id="l${n}" data-width="160" data-height="90">${inner}</div></template></body></html>`;
    const findings = await lint({
      'index.html': page('<div data-composition-id="l1" data-composition-src="l1.html" data-duration="2"></div>'),
      'l1.html': level(1, '<div data-composition-id="l2" data-composition-src="l2.html" data-duration="1"></div>'),
      'l2.html': level(2, '<div data-composition-id="l3" data-composition-src="missing.html" data-duration="1"></div>'),
    });
    expect(summary(findings)).toEqual(['l2.html:1:87 error subcomposition/missing-src-file']);
  });

  test('<html> with the id and a stage element with the size and length: no root finding', async () => {
    const html = `<html data-composition-id="main"><body><div id="stage" data-composition-id="main" data-width="160" data-height="90" data-duration="2"></div></body></html>`;
    expect(summary(await lint({ 'index.html': html }))).toEqual([]);
  });

  test('a mounted child without data-width/data-height takes its size from the host: no finding', async () => {
    const sizeless = `<!doctype html><html><body><template><div id="root" data-composition-id="card"><p>card</p></div>
<script>window.__timelines = window.__timelines || {}; window.__timelines["card"] = gsap.timeline({ paused: true });</script></template></body></html>`;
    const findings = await lint({
      'index.html': page(
        '<div data-composition-id="card" data-composition-src="card.html" data-start="0" data-duration="2" style="width:320px;height:180px"></div>',
      ),
      'card.html': sizeless,
    });
    expect(summary(findings)).toEqual([]);
  });
});

describe('lintProject — a length from the registered timeline', () => {
  const timed = (script: string) =>
    `<html data-composition-id="main" data-width="640" data-height="360"><body><h1>Hi</h1><script>${script}</script></body></html>`;

  test('an entry without data-duration that registers its timeline: a note saying where the length comes from', async () => {
    const findings = await lint({
      'index.html': timed(
        'window.__timelines = window.__timelines || {}; window.__timelines["main"] = gsap.timeline({ paused: true }).to("h1", { x: 100, duration: 3 });',
      ),
    });
    expect(summary(findings)).toEqual(['index.html:1:1 info root/duration-from-timeline']);
    expect(findings[0]?.message).toContain('window.__timelines["main"]');
  });

  test('an entry without data-duration and no timeline is still an error, whose fix names both ways', async () => {
    const findings = await lint({ 'index.html': timed('') });
    expect(summary(findings)).toEqual(['index.html:1:1 error root/missing-duration']);
    expect(findings[0]?.message).toMatch(/data-duration="5".*window\.__timelines\["main"\]/);
  });
});

describe('lintProject — an entry that another file mounts', () => {
  const card = '<html><body><template><div data-composition-id="card" data-duration="2"><p>card</p></div></template></body></html>';
  const files = {
    'index.html': page('<div data-composition-id="card" data-composition-src="parts/card.html" data-duration="2"></div>'),
    'parts/card.html': card,
  };

  test('linted on its own it still needs its size, and the message says who mounts it and why', async () => {
    const findings = await lintProject('parts/card.html', {
      readFile: async (path) => files[path as keyof typeof files],
      projectHtmlFiles: async () => Object.keys(files),
    });
    expect(findings.map((f) => `${f.severity} ${f.rule}`)).toEqual(['error root/missing-width', 'error root/missing-height']);
    expect(findings[0]?.message).toContain('index.html mounts this file with data-composition-src and gives it its size there');
  });

  test('linted from the entry that mounts it: no size finding', async () => {
    expect(summary(await lint(files))).toEqual([]);
  });
});
