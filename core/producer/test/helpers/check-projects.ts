import { composition } from './temp-project.js';

const GSAP = '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>';
const BOX = 'position:absolute;width:30px;height:30px';

/** 160x90, 2 s at 10 fps, with GSAP loaded (from the local package, as the render maps CDN URLs). */
function project(body: string, head = '', files: Record<string, string> = {}): Record<string, string> {
  return { 'index.html': composition({ duration: 2, fps: 10, head: `${GSAP}${head}`, body }), ...files };
}

/** A composition whose only content is captions of the `transcript` variable (its default). */
function captionProject(body: string, transcript: unknown, head = ''): Record<string, string> {
  const variables = [{ id: 'transcript', type: 'captions', label: 'Captions', default: transcript }];
  return {
    'index.html': composition({
      duration: 2,
      fps: 10,
      variables,
      head: `<style>[data-captions]{position:absolute;left:0;top:20px;width:160px;font:16px sans-serif;color:#fff}</style>${head}`,
      body,
    }),
  };
}

/** Two segments between the whole-video samples (0.2, 1.0 and 1.7 s at 10 fps): 0.3-0.7 s and 1.2-1.5 s. */
const TRANSCRIPT = {
  segments: [{ words: [{ text: 'Hello', start: 0.3, end: 0.7 }] }, { words: [{ text: 'again.', start: 1.2, end: 1.5 }] }],
};

/**
 * Small compositions, each broken in one way `seekframe check` must catch (and one that is not
 * broken). Everything else in each is fine, so a test can assert the one finding it expects.
 */
export const CHECK_PROJECTS = {
  /** A registered GSAP timeline, a CSS entry animation delayed to its clip's start, clips in frame. */
  clean: project(
    `<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div>
<div id="card" data-start="0.5" data-duration="1.5" style="${BOX};left:60px;top:40px;background:#0cf;animation:rise 0.6s 0.5s both"></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#box', { x: 100, duration: 1.5, ease: 'none' });
  window.__timelines = { main: tl };
</script>`,
    '<style>@keyframes rise{from{transform:translateY(40px);opacity:0}to{transform:none;opacity:1}}</style>',
  ),

  /** The timeline is built (paused, as GSAP compositions do) but never put in window.__timelines. */
  gsapUnregistered: project(
    `<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#box', { x: 100, duration: 1.5 });
</script>`,
  ),

  /** A zero-length entry animation (baked at its end) and one that is over before its clip appears. */
  cssStuck: project(
    `<div id="title" style="${BOX};left:10px;top:10px;background:#fc0;animation:rise 0s forwards"></div>
<div id="badge" data-start="1" data-duration="1" style="${BOX};left:80px;top:40px;background:#0cf;animation:rise 0.5s both"></div>`,
    '<style>@keyframes rise{from{transform:translateY(40px);opacity:0}to{transform:none;opacity:1}}</style>',
  ),

  /** A clip placed right of the 160 px frame for its whole life. */
  offScreen: project(
    `<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div>
<div id="lost" data-start="0.5" data-duration="1" style="${BOX};left:400px;top:10px;background:#f00"></div>`,
  ),

  /** A registered tween moves an inline <span>, where transforms do not apply: the timeline moves, the pixels do not. */
  staticMotion: project(
    `<p style="position:absolute;left:10px;top:20px;margin:0"><span id="chip" style="background:#0f0;padding:10px 20px"></span></p>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to('#chip', { x: 80, duration: 1, ease: 'none' }, 0.5);
  window.__timelines = { main: tl };
</script>`,
  ),

  /** main.js throws on its third line. */
  scriptError: project(`<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div><script src="main.js"></script>`, '', {
    'main.js': '// a composition script\nconst settings = undefined;\nconsole.log(settings.speed);\n',
  }),

  /** An <img> whose file is not in the project. */
  missingFile: project(
    `<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div><img id="logo" src="logo.png" style="position:absolute;left:80px;top:10px;width:40px;height:40px">`,
  ),

  /** Nothing but the background in every frame. */
  blank: project('<div id="ghost" style="position:absolute;left:10px;top:10px;width:30px;height:30px"></div>'),

  /**
   * Issue 37's two false alarms, fixed: the horizontal gridlines of an SVG chart (<line>s of zero
   * height) faded in by a registered tween are not off screen; a CSS animation whose first step
   * falls after the composition ends changes nothing in it, so it is not static.
   */
  gridlinesAndLongPeriod: project(
    `<svg width="160" height="90" style="position:absolute;left:0;top:0"><g stroke="#888" stroke-width="1">
<line class="gl" x1="10" y1="20" x2="150" y2="20"/><line class="gl" x1="10" y1="50" x2="150" y2="50"/><line class="gl" x1="10" y1="80" x2="150" y2="80"/></g></svg>
<div id="halo" style="${BOX};left:60px;top:30px;border:2px dashed #36c;animation:turn 60s steps(12) infinite"></div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.from('.gl', { opacity: 0, duration: 0.6, stagger: 0.2 });
  window.__timelines = { main: tl };
</script>`,
    '<style>@keyframes turn{to{transform:rotate(360deg)}}</style>',
  ),

  /** Nothing but words on a black page, shown only between the whole-video samples: not a blank video. */
  captionsOnly: captionProject('<div id="cap" data-captions="transcript"></div>', TRANSCRIPT),

  /** One caption element's clip (0-0.5 s) sees only the first segment; another's (1.6-2 s) none. */
  captionsHidden: captionProject(
    `<div id="early" data-start="0" data-duration="0.5"><div id="cap1" data-captions="transcript"></div></div>
<div id="late" data-start="1.6" data-duration="0.4"><div id="cap2" data-captions="transcript"></div></div>`,
    TRANSCRIPT,
  ),

  /** The caption box sits right of the 160 px frame; a second one paints nothing (font-size 0). */
  captionsOffScreen: captionProject(
    '<div id="cap" data-captions="transcript" style="left:400px"></div><div id="tiny" data-captions="transcript" style="font-size:0"></div>',
    TRANSCRIPT,
  ),

  /** A transparent page (no background) with a moving box: what mov/webm/png-sequence are for. */
  transparent: {
    'index.html': composition({
      duration: 1,
      fps: 10,
      head: `${GSAP}<style>html,body{background:transparent !important}</style>`,
      body: `<div id="box" style="${BOX};left:10px;top:10px;background:#fc0"></div>
<script>const tl = gsap.timeline({ paused: true }); tl.to('#box', { x: 100, duration: 1, ease: 'none' }); window.__timelines = { main: tl };</script>`,
    }),
  },
} satisfies Record<string, Record<string, string>>;

export type CheckProjectName = keyof typeof CHECK_PROJECTS;
