import type { VariableDeclaration } from '@seekframe/composition';
import type { SourceInfo, StudioInfo } from '../studio/studio-types.js';
import { previewJson, studioJson } from './api.js';
import type { Finding } from './lint-panel.js';

/** `project.json` (core/cli/src/preview/project-info.ts), the parts this page reads. */
export interface ProjectInfo {
  entry: string;
  width: number;
  height: number;
  fps?: number;
  variables: VariableDeclaration[];
}

/**
 * What the page knows about the project besides the player: the composition shown (the entry, or
 * a sub-composition opened on its own with `?composition=`), its files as written (with the hash
 * every write sends back), lint findings and the editor link. Read again after every reload.
 */
export class StudioFacts {
  studio: StudioInfo | undefined;
  findings: Finding[] = [];
  /** The composition file opened on its own (`?composition=card.html`), else undefined (the entry). */
  readonly composition = new URLSearchParams(location.search).get('composition') ?? undefined;
  private readonly sources = new Map<string, SourceInfo>();

  project(): Promise<ProjectInfo> {
    return previewJson<ProjectInfo>(`project.json${this.query('file')}`);
  }

  /** The file the top-level clips are written in. */
  get file(): string {
    return this.composition ?? this.studio?.entry ?? '';
  }

  source(file: string): SourceInfo | undefined {
    return this.sources.get(file);
  }

  /** A write answered with the file as it is now. */
  written(info: SourceInfo): void {
    this.sources.set(info.file, info);
  }

  /** Reads studio.json, lint, and the sources of the shown file and of `more` files. */
  async load(more: Iterable<string> = []): Promise<void> {
    const [studio, lint] = await Promise.all([studioJson<StudioInfo>('studio.json'), previewJson<{ findings: Finding[] }>('lint.json')]);
    this.studio = studio;
    this.findings = lint.findings;
    const files = new Set([this.composition ?? studio.entry, ...more, ...this.sources.keys()]);
    this.sources.clear();
    await this.readSources(files);
  }

  /** Reads the sources of files not read yet (sub-composition files found in the timeline). */
  async readSources(files: Iterable<string>): Promise<void> {
    await Promise.all(
      [...files].map((file) =>
        studioJson<SourceInfo>(`source.json?file=${encodeURIComponent(file)}`)
          .then((info) => this.sources.set(info.file, info))
          .catch(() => undefined),
      ),
    );
  }

  /** The header's way back to the entry when a sub-composition is open on its own. */
  showCrumbs(crumbs: HTMLElement): void {
    crumbs.replaceChildren();
    if (!this.composition) return;
    const back = document.createElement('a');
    back.href = '/';
    back.textContent = `← ${this.studio?.entry ?? 'entry'}`;
    crumbs.append(back, ` › ${this.composition} (on its own)`);
  }

  private query(name: string): string {
    return this.composition ? `?${name}=${encodeURIComponent(this.composition)}` : '';
  }
}
