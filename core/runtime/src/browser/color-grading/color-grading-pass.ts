import {
  effectiveGrading,
  parseColorGrading,
  parseCubeLut,
  SeekframeError,
  type CubeLut,
  type ReferenceLookup,
} from '@seekframe/composition';
import { hashString } from '../seeded-random.js';
import { describe, GRADED_ATTRIBUTE, GradedLayer, type GradedElement } from './graded-layer.js';
import { isIdentity } from './grade-pixels.js';

export interface GradingSettings {
  /** This instance's resolved variables (what `getVariables()` returns). */
  variables: Record<string, unknown>;
}

interface GradingSource {
  text: string;
  /** Where `$name` is looked up and `lut` is resolved from. */
  variables: Record<string, unknown>;
  baseUrl: string;
  origin: string;
}

function lookupIn(variables: Record<string, unknown>): ReferenceLookup {
  return (name) => (Object.hasOwn(variables, name) ? { value: variables[name] } : undefined);
}

/**
 * Applies `data-color-grading` for one document (one composition instance): parses each graded
 * element's JSON once with this instance's variables, loads its LUT, and on every seek repaints
 * the graded canvases. A sub-composition host's grading applies to the media of its instance
 * that have none of their own, with `$name` taken from the host's (parent) composition.
 */
export class ColorGradingPass {
  private layers: GradedLayer[] = [];
  private readonly luts = new Map<string, Promise<CubeLut>>();

  constructor(
    private readonly win: Window,
    private readonly settings: GradingSettings,
  ) {}

  async prepare(): Promise<void> {
    const doc = this.win.document;
    const inherited = this.hostGrading();
    const elements = [...doc.querySelectorAll<GradedElement>('img, video')].filter((el) => !el.hasAttribute('data-seekframe-overlay'));
    const work: Promise<GradedLayer | undefined>[] = [];
    for (const el of elements) {
      const own = el.getAttribute('data-color-grading');
      const source: GradingSource | undefined =
        own !== null
          ? { text: own, variables: this.settings.variables, baseUrl: doc.baseURI, origin: `${describe(el)} in ${doc.location.href}` }
          : inherited;
      if (source) work.push(this.createLayer(el, source));
    }
    if (work.length === 0) return;
    installGradedStyle(doc);
    this.layers = (await Promise.all(work)).filter((layer): layer is GradedLayer => layer !== undefined);
  }

  /** The grading written on this instance's sub-composition host, if this document is a child. */
  private hostGrading(): GradingSource | undefined {
    let host: Element | null | undefined;
    try {
      host = this.win.frameElement?.parentElement;
    } catch {
      return undefined; // a cross-origin parent is not a Seekframe host
    }
    const text = host?.hasAttribute('data-composition-src') ? host.getAttribute('data-color-grading') : null;
    if (!host || text === null) return undefined;
    const parent = host.ownerDocument.defaultView as (Window & { __seekframe?: { getVariables(): Record<string, unknown> } }) | null;
    return {
      text,
      variables: parent?.__seekframe?.getVariables() ?? {},
      baseUrl: host.ownerDocument.baseURI,
      origin: `sub-composition host "${host.getAttribute('data-composition-id') ?? host.getAttribute('data-composition-src')}" in ${host.ownerDocument.location.href}`,
    };
  }

  private async createLayer(el: GradedElement, source: GradingSource): Promise<GradedLayer | undefined> {
    const { grading, problems } = parseColorGrading(source.text, lookupIn(source.variables));
    if (!grading) {
      const list = problems.map((p) => (p.kind === 'json' ? `is not valid JSON (${p.reason ?? ''})` : p.message)).join('; ');
      throw new SeekframeError(
        'invalid-color-grading',
        `data-color-grading on ${source.origin}: ${list}; run \`seekframe lint\` and fix the field or the variable value`,
        {
          stage: 'variables',
        },
      );
    }
    const effective = effectiveGrading(grading);
    let lut: CubeLut | undefined;
    if (effective.lut !== undefined) {
      const url = new URL(effective.lut, source.baseUrl);
      // A LUT is a project file (lint refuses URLs too); the page never fetches one from elsewhere.
      if (url.origin !== new URL(source.baseUrl).origin) {
        throw new SeekframeError(
          'invalid-color-grading',
          `data-color-grading on ${source.origin}: lut "${effective.lut}" is not a file of the project; copy the .cube file into the project and give its path`,
          {
            stage: 'load',
          },
        );
      }
      lut = await this.loadLut(url.href, source.origin);
    }
    if (isIdentity(effective, lut)) return undefined;
    return new GradedLayer(el, effective, lut);
  }

  private loadLut(url: string, origin: string): Promise<CubeLut> {
    let pending = this.luts.get(url);
    if (!pending) {
      pending = (async () => {
        let response: Response;
        try {
          response = await fetch(url);
        } catch (cause) {
          throw new SeekframeError(
            'asset-not-found',
            `The LUT ${url} (data-color-grading on ${origin}) could not be fetched; check the path`,
            { stage: 'load', cause },
          );
        }
        if (!response.ok) {
          throw new SeekframeError(
            'asset-not-found',
            `The LUT ${url} (data-color-grading on ${origin}) answered HTTP ${response.status}; check the path of the .cube file`,
            { stage: 'load' },
          );
        }
        return parseCubeLut(await response.text(), url);
      })();
      this.luts.set(url, pending);
    }
    return pending;
  }

  /**
   * Repaints every graded element for time `t` (instance-local seconds). `overlayOf` gives the
   * frame image that covers a `<video>` in render mode, which is then what gets graded.
   */
  paint(t: number, overlayOf: (el: GradedElement) => HTMLImageElement | undefined): void {
    // Grain is keyed by the frame's time in whole milliseconds, not its index: the player previews
    // at the composition's fps and a render may use another, and the same instant must look the same.
    const frame = Math.round(t * 1000);
    this.layers.forEach((layer, index) => {
      const overlay = layer.el instanceof HTMLVideoElement ? overlayOf(layer.el) : undefined;
      // Grain differs per element and per instant, and is the same for an instant however it is reached.
      // Not the render seed: the player (preview) has none, and its grain must match the render.
      const seed = (hashString(`${this.instanceName()}:${index}:${layer.el.id}`) ^ Math.imul(frame + 1, 0x9e3779b1)) >>> 0;
      layer.paint(overlay ?? layer.el, overlay ?? layer.el, seed, frame);
    });
  }

  /** The host's id for a sub-composition instance, so two instances of one file get different grain. */
  private instanceName(): string {
    try {
      return this.win.frameElement?.parentElement?.getAttribute('data-composition-id') ?? '';
    } catch {
      return '';
    }
  }

  get active(): boolean {
    return this.layers.length > 0;
  }
}

function installGradedStyle(doc: Document): void {
  if (doc.querySelector('style[data-seekframe="color-grading"]')) return;
  const style = doc.createElement('style');
  style.setAttribute('data-seekframe', 'color-grading');
  style.textContent = `[${GRADED_ATTRIBUTE}]{visibility:hidden!important}`;
  (doc.head ?? doc.documentElement).appendChild(style);
}
