import {
  attrLocation,
  attrValueLocator,
  elementLocation,
  getAttr,
  hasAttr,
  listElements,
  parseHtml,
  type HtmlElement,
  type SourceLocation,
} from './html-tree.js';
import { checkCaptionsReference } from './check-captions-reference.js';
import { pickCompositionRoot, type RootElementView } from './pick-composition-root.js';
import { checkColorGrading } from './check-color-grading.js';
import type { LintFinding } from './lint-finding.js';
import { lintSeverity, type LintRuleId } from './lint-rules.js';
import { lengthInPage } from './length-in-page.js';
import { jsonErrorOffset, locateJsonPath, shortJsonError, splitDottedPath } from './locate-json-path.js';
import { parseVariableDeclarationsAttribute } from './parse-variable-declarations.js';
import type { VariableDeclaration } from './variable-declarations.js';
import { ATTR } from './composition-attributes.js';

export interface ClipInfo {
  id?: string;
  tag: string;
  /** Raw `data-start` ("0" for media without one); resolve with `resolveTiming`. */
  start: string;
  duration?: number;
  trackIndex?: number;
  mediaStart?: number;
  /** `<audio>` always; `<video>` only with `data-has-audio`. Absent on other elements. */
  hasAudio?: boolean;
  src?: string;
  location: SourceLocation;
}

export interface SubCompositionInfo {
  /** The host's `data-composition-id` (names this instance). */
  id: string;
  /** `data-composition-src` as written (relative to the including file). */
  src: string;
  start: string;
  duration?: number;
  trackIndex?: number;
  /** Parsed `data-variable-values`; `{}` when absent or malformed. */
  variableValues: Record<string, unknown>;
  /** Set when `data-variable-values` is not a JSON object; says why. */
  variableValuesError?: string;
  /** Where each key of `data-variable-values` is written, for findings about one value. */
  variableValueLocations?: Record<string, SourceLocation>;
  location: SourceLocation;
}

export interface CompositionMetadata {
  id: string;
  /** 0 in a child file whose root has none: the host's box gives the size. */
  width: number;
  height: number;
  /** Seconds; 0 when `durationSource` is not `data-duration` (or the value is invalid). */
  duration: number;
  /**
   * Where the length comes from: the root's `data-duration`; the timeline the entry registers
   * (`window.__timelines`) or, without one, where its finite CSS animations / Web Animations end
   * (both only known in the page: the render reads `__seekframe.duration`); or, in a child file
   * without one, its host (the host's `data-duration`, else what the child's page gives).
   */
  durationSource: 'data-duration' | 'timeline' | 'animations' | 'host';
  fps?: number;
  variables: VariableDeclaration[];
  clips: ClipInfo[];
  subCompositions: SubCompositionInfo[];
}

export interface CompositionInspection {
  /** Always filled; a missing or invalid root number is 0 and has an error finding. */
  metadata: CompositionMetadata;
  findings: LintFinding[];
  rootLocation: SourceLocation;
}

const NUMBER = /^\s*(?:\d+(?:\.\d+)?|\.\d+)\s*$/;

function readNumber(raw: string | undefined): number | undefined {
  return raw !== undefined && NUMBER.test(raw) ? Number(raw) : undefined;
}

/** The root by the rule every side shares (pick-composition-root.ts), read from the parsed file. */
function findRoot(elements: HtmlElement[]): HtmlElement | undefined {
  const html = elements.find((e) => e.tagName === 'html');
  const compositions = elements.filter((e) => e !== html && hasAttr(e, ATTR.compositionId) && !hasAttr(e, ATTR.compositionSrc));
  return pickCompositionRoot(html, compositions, PARSED_ROOT_VIEW);
}

const PARSED_ROOT_VIEW: RootElementView<HtmlElement> = {
  attr: getAttr,
  insideComposition(element) {
    for (let node = element.parentNode; node && 'tagName' in node; node = node.parentNode) {
      if (node.tagName !== 'html' && hasAttr(node, ATTR.compositionId)) return true;
    }
    return false;
  },
};

/**
 * Where the root's length is written: the root itself, else `<html>` or another composition
 * element with the root's id (an `<html data-composition-id>` + stage pair split the attributes).
 */
function findDurationHolder(elements: HtmlElement[], root: HtmlElement): HtmlElement {
  if (hasAttr(root, ATTR.duration)) return root;
  const id = getAttr(root, ATTR.compositionId);
  const html = elements.find((e) => e.tagName === 'html');
  const twin = elements.find(
    (e) =>
      e !== root &&
      hasAttr(e, ATTR.duration) &&
      !hasAttr(e, ATTR.compositionSrc) &&
      ((e === html && (getAttr(e, ATTR.compositionId) === undefined || getAttr(e, ATTR.compositionId) === id)) ||
        (id !== undefined && getAttr(e, ATTR.compositionId) === id)),
  );
  return twin ?? root;
}

export interface InspectOptions {
  file?: string;
  /**
   * `child`: the file is embedded by a `data-composition-src` host. The host's box gives it its
   * size and the host's `data-duration` (or the child's own timeline at render time) may decide
   * its length, so a root without `data-width`, `data-height` or `data-duration` is not a finding
   * here (`lintProject` judges the length per host) and the value reads 0.
   */
  role?: 'entry' | 'child';
  /**
   * An entry file that another file of the project mounts (`data-composition-src`), named as the
   * message should name it: a missing size says why it is still needed when linted on its own.
   */
  mountedBy?: string;
}

/**
 * Reads a composition file once, at compile time, collecting every problem as a finding instead
 * of stopping at the first. `extractCompositionMetadata` (throws) and `lintProject` build on it.
 */
export function inspectComposition(html: string, options: InspectOptions = {}): CompositionInspection {
  const file = options.file ?? '<composition>';
  const findings: LintFinding[] = [];
  const add = (rule: LintRuleId, at: SourceLocation, message: string): void => {
    findings.push({ file, line: at.line, column: at.column, rule, severity: lintSeverity(rule), message });
  };
  const elements = listElements(parseHtml(html));
  const root = findRoot(elements);
  const metadata: CompositionMetadata = {
    id: '',
    width: 0,
    height: 0,
    duration: 0,
    durationSource: 'data-duration',
    variables: [],
    clips: [],
    subCompositions: [],
  };
  if (!root) {
    add(
      'root/missing-root',
      { line: 1, column: 1 },
      'no composition root found; add data-composition-id, data-width, data-height and data-duration to <html> or to the composition element',
    );
    return { metadata, findings, rootLocation: { line: 1, column: 1 } };
  }
  const rootLocation = elementLocation(root);

  const id = getAttr(root, ATTR.compositionId);
  if (id) metadata.id = id;
  else {
    metadata.id = 'main';
    add(
      'root/missing-id',
      rootLocation,
      'the composition root has no data-composition-id; add one (e.g. data-composition-id="main") so timelines and sub-compositions can name it',
    );
  }

  const dimension = (attr: typeof ATTR.width | typeof ATTR.height | typeof ATTR.duration, what: string, whole: boolean): number => {
    const holder = attr === ATTR.duration ? findDurationHolder(elements, root) : root;
    const raw = getAttr(holder, attr);
    const name = attr.slice(5) as 'width' | 'height' | 'duration';
    // A mounted file takes its size from its host's box, and its length from the host or its
    // own timeline (lintProject judges that per host): nothing to report here, the value reads 0.
    if (raw === undefined && options.role === 'child') {
      if (attr === ATTR.duration) metadata.durationSource = 'host';
      return 0;
    }
    const inPage = raw === undefined && attr === ATTR.duration ? lengthInPage(html) : undefined;
    if (inPage === 'timeline' || inPage === 'animations') {
      metadata.durationSource = inPage;
      add(
        inPage === 'timeline' ? 'root/duration-from-timeline' : 'root/duration-from-animations',
        rootLocation,
        inPage === 'timeline'
          ? `the composition root has no data-duration: the composition lasts as long as the timeline it registers (window.__timelines["${metadata.id}"]), whose length is read in the page when the render, check or preview loads it; add data-duration="${what}" to fix the length in the file instead`
          : `the composition root has no data-duration and registers no timeline: the composition lasts until its last CSS animation or Web Animation ends (each finite), read in the page when the render, check or preview loads it; add data-duration="${what}" to fix the length in the file instead`,
      );
      return 0;
    }
    if (raw === undefined) {
      const fix =
        attr === ATTR.duration
          ? `${inPage === 'infinite-animations' ? 'its CSS animations include an infinite one, so no length follows from them; ' : ''}add ${attr}="${what}" (seconds), or register the composition's GSAP timeline in window.__timelines["${metadata.id}"] to take its length`
          : `add ${attr}="${what}"${options.mountedBy ? `; ${options.mountedBy} mounts this file with data-composition-src and gives it its size there, but on its own (as linted or rendered now) it needs one` : ''}`;
      add(`root/missing-${name}`, rootLocation, `the composition root has no ${attr}; ${fix}`);
      return 0;
    }
    const value = readNumber(raw);
    if (value === undefined || value <= 0 || (whole && !Number.isInteger(value))) {
      add(
        `root/invalid-${name}`,
        attrLocation(holder, attr),
        `${attr}="${raw}" must be a ${whole ? 'positive whole number of pixels' : 'positive number of seconds'}, e.g. ${attr}="${what}"`,
      );
      return 0;
    }
    return value;
  };
  metadata.width = dimension(ATTR.width, '1920', true);
  metadata.height = dimension(ATTR.height, '1080', true);
  metadata.duration = dimension(ATTR.duration, '5', false);
  const fpsRaw = getAttr(root, ATTR.fps);
  if (fpsRaw !== undefined) {
    const fps = readNumber(fpsRaw);
    if (fps === undefined || fps <= 0)
      add(
        'root/invalid-fps',
        attrLocation(root, ATTR.fps),
        `data-fps="${fpsRaw}" must be a positive number, e.g. data-fps="30"; or remove it to use the render's fps`,
      );
    else metadata.fps = fps;
  }

  readVariables(html, elements, root, metadata, add);

  for (const element of elements) {
    checkColorGrading(html, element, metadata.variables, add);
    checkCaptionsReference(element, metadata.variables, add);
    if (element === root) continue;
    if (hasAttr(element, ATTR.compositionSrc)) metadata.subCompositions.push(readHost(html, element, add));
    else if (hasAttr(element, ATTR.start) || element.tagName === 'video' || element.tagName === 'audio') {
      metadata.clips.push(readClip(element, add));
    }
  }
  return { metadata, findings, rootLocation };
}

type Add = (rule: LintRuleId, at: SourceLocation, message: string) => void;

function readVariables(source: string, elements: HtmlElement[], root: HtmlElement, metadata: CompositionMetadata, add: Add): void {
  const htmlElement = elements.find((e) => e.tagName === 'html');
  const holder = [htmlElement, root].find((e) => e && hasAttr(e, ATTR.variables));
  if (!holder) return;
  const at = attrLocation(holder, ATTR.variables);
  const text = getAttr(holder, ATTR.variables) ?? '';
  const locate = attrValueLocator(source, holder, ATTR.variables);
  const parsed = parseVariableDeclarationsAttribute(text);
  if (parsed.malformedJson) {
    const offset = jsonErrorOffset(parsed.malformedJson, text);
    add(
      'variables/malformed-json',
      locate && offset !== undefined ? locate(offset) : at,
      `data-composition-variables is not valid JSON (${shortJsonError(parsed.malformedJson)}); write a JSON array with double-quoted keys and strings`,
    );
  }
  for (const problem of parsed.problems) {
    const where = locate && problem.index >= 0 ? locate(locateJsonPath(text, [problem.index, ...splitDottedPath(problem.path)])) : at;
    add(problem.rule, where, problem.message);
  }
  metadata.variables = parsed.declarations;
}

function readTimingAttributes(element: HtmlElement, add: Add): { duration?: number; trackIndex?: number } {
  const out: { duration?: number; trackIndex?: number } = {};
  const durationRaw = getAttr(element, ATTR.duration);
  if (durationRaw !== undefined) {
    const duration = readNumber(durationRaw);
    if (duration === undefined) {
      add(
        'timing/invalid-duration',
        attrLocation(element, ATTR.duration),
        `data-duration="${durationRaw}" must be a number of seconds (0 or more), e.g. data-duration="2.5"`,
      );
    } else out.duration = duration;
  }
  const trackRaw = getAttr(element, ATTR.trackIndex);
  if (trackRaw !== undefined) {
    const track = readNumber(trackRaw);
    if (track === undefined || !Number.isInteger(track)) {
      add(
        'timing/invalid-track-index',
        attrLocation(element, ATTR.trackIndex),
        `data-track-index="${trackRaw}" must be a whole number (0, 1, 2...); it is ignored`,
      );
    } else out.trackIndex = track;
  }
  return out;
}

function readClip(element: HtmlElement, add: Add): ClipInfo {
  const isMedia = element.tagName === 'video' || element.tagName === 'audio';
  const clip: ClipInfo = {
    tag: element.tagName,
    start: getAttr(element, ATTR.start) ?? '0',
    location: elementLocation(element),
    ...readTimingAttributes(element, add),
  };
  // Same precedence as the runtime: an inline composition is named by its data-composition-id.
  const id = getAttr(element, ATTR.compositionId) || getAttr(element, 'id');
  if (id) clip.id = id;
  if (isMedia) {
    const src =
      getAttr(element, 'src') ??
      element.childNodes.map((n) => ('tagName' in n && n.tagName === 'source' ? getAttr(n, 'src') : undefined)).find(Boolean);
    if (src) clip.src = src;
    const hasAudioRaw = getAttr(element, ATTR.hasAudio);
    clip.hasAudio = element.tagName === 'audio' || (hasAudioRaw !== undefined && hasAudioRaw !== 'false');
    const mediaStartRaw = getAttr(element, ATTR.mediaStart);
    if (mediaStartRaw !== undefined) {
      const mediaStart = readNumber(mediaStartRaw);
      if (mediaStart === undefined) {
        add(
          'media/invalid-media-start',
          attrLocation(element, ATTR.mediaStart),
          `data-media-start="${mediaStartRaw}" must be a number of seconds (0 or more) to trim from the source's start`,
        );
      } else clip.mediaStart = mediaStart;
    }
  }
  return clip;
}

function readHost(source: string, element: HtmlElement, add: Add): SubCompositionInfo {
  const src = getAttr(element, ATTR.compositionSrc) ?? '';
  const location = elementLocation(element);
  let id = getAttr(element, ATTR.compositionId);
  if (!id) {
    id = src.replace(/^.*\//, '').replace(/\.[^.]*$/, '') || 'sub';
    add(
      'subcomposition/missing-id',
      location,
      `this data-composition-src host has no data-composition-id; add one (e.g. data-composition-id="${id}") to name the instance`,
    );
  }
  const host: SubCompositionInfo = {
    id,
    src,
    start: getAttr(element, ATTR.start) ?? '0',
    variableValues: {},
    location,
    ...readTimingAttributes(element, add),
  };
  const valuesRaw = getAttr(element, ATTR.variableValues);
  if (valuesRaw !== undefined) {
    let parsed: unknown;
    let error: string | undefined;
    let offset: number | undefined;
    try {
      parsed = JSON.parse(valuesRaw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) error = 'it is not a JSON object';
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      offset = jsonErrorOffset(reason, valuesRaw);
      error = `it is not valid JSON (${shortJsonError(reason)})`;
    }
    const locate = attrValueLocator(source, element, ATTR.variableValues);
    if (error) {
      host.variableValuesError = error;
      add(
        'subcomposition/malformed-values',
        locate && offset !== undefined ? locate(offset) : attrLocation(element, ATTR.variableValues),
        `data-variable-values on "${id}" is unusable: ${error}; write a JSON object like {"title":"Hi"}`,
      );
    } else {
      host.variableValues = parsed as Record<string, unknown>;
      if (locate) {
        host.variableValueLocations = Object.fromEntries(
          Object.keys(host.variableValues).map((key) => [key, locate(locateJsonPath(valuesRaw, [key]))]),
        );
      }
    }
  }
  return host;
}
