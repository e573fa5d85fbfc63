import { describe, expect, it } from 'vitest';
import { preflightProject, type PreflightHost, type ProjectFileStatus } from './preflight-project.js';
import { resolveReference } from './project-references.js';

const root = (body: string, head = '') =>
  `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="1"><head>${head}</head><body>${body}</body></html>`;

/** A project in memory: text files, and binary files that exist (status only); a folder is unreadable. */
function host(files: Record<string, string>, binaries: string[] = [], folders: string[] = []): PreflightHost & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    readFile: async (path) => files[path],
    fileStatus: async (path): Promise<ProjectFileStatus> => {
      asked.push(path);
      if (folders.includes(path)) return 'unreadable';
      return path in files || binaries.includes(path) ? 'file' : 'missing';
    },
  };
}

describe('preflightProject: the files a composition loads', () => {
  it('reports each missing or unreadable file where it is named, and nothing for what is there or not a project file', async () => {
    const findings = await preflightProject(
      'p/index.html',
      host(
        {
          'p/index.html': root(
            `<img src="img/logo.png">
<video src="clip.mp4" poster="poster%20one.jpg"></video>
<div style="background:url('bg.png')"></div>
<img src="https://cdn.example/x.png"><img src="data:image/png;base64,AA=="><a href="nowhere.html">a</a>
<img src="\${image}"><img src="../img/logo.png?v=2#x"><img src="/img/logo.png">
<audio src="sounds"></audio>
<div data-composition-id="intro" data-composition-src="parts/intro.html" data-start="0" data-duration="1"></div>`,
            '<link rel="stylesheet" href="style.css"><link rel="icon" href="missing.ico"><script src="app.js"></script>',
          ),
          'p/style.css': '/* url(commented.png) */\nbody { background: url("img/paper.png"); }\n@import "more.css";',
          'p/more.css': '.x { background: url(../img/gone.png) }',
          'p/parts/intro.html':
            '<template><div data-composition-id="intro" data-width="160" data-height="90"><img src="face.png"></div></template>',
        },
        ['p/img/logo.png', 'p/clip.mp4', 'p/poster one.jpg', 'p/app.js', 'p/img/paper.png'],
        ['p/sounds'],
      ),
    );
    expect(findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.message.split(',')[0]}`)).toEqual([
      'p/index.html:3 project/missing-file url() in style="" names "bg.png"',
      'p/index.html:6 project/unreadable-file <audio src> names "sounds"',
      'p/more.css:1 project/missing-file url() in more.css names "../img/gone.png" (img/gone.png in the project folder)',
      'p/parts/intro.html:1 project/missing-file <img src> names "face.png" (parts/face.png in the project folder)',
    ]);
    expect(findings[0]).toMatchObject({ severity: 'error', column: 6 });
    expect(findings[0]!.message).toContain('the render stops at it (asset-not-found). Add the file or fix the path');
  });

  it('keeps lint: its findings come first-class, in one sorted list', async () => {
    const findings = await preflightProject('index.html', host({ 'index.html': '<html><body><img src="x.png"></body></html>' }));
    expect(findings.map((f) => f.rule)).toContain('project/missing-file');
    expect(findings.some((f) => f.rule.startsWith('root/'))).toBe(true);
  });

  it('a host that cannot tell (unknown) gives no finding', async () => {
    const unknown: PreflightHost = {
      readFile: async (path) => (path === 'index.html' ? root('<script src="node_modules/gsap/dist/gsap.min.js"></script>') : undefined),
      fileStatus: async () => 'unknown',
    };
    expect(await preflightProject('index.html', unknown)).toEqual([]);
  });

  it('resolves references as the browser asks the project server', () => {
    expect(resolveReference('index.html', './a/b.png?x=1')).toBe('a/b.png');
    expect(resolveReference('parts/intro.html', '../../../x.png')).toBe('x.png');
    expect(resolveReference('parts/intro.html', '/x.png')).toBe('x.png');
    expect(resolveReference('index.html', 'a%20b.png')).toBe('a b.png');
    expect(resolveReference('index.html', 'a\\b.png')).toBe('a/b.png');
    for (const remote of ['https://x/y.png', '//x/y.png', 'data:,', 'blob:x', '#frag', '', '  ', '{{src}}', 'mailto:a@b']) {
      expect(resolveReference('index.html', remote), remote).toBeUndefined();
    }
  });
});
