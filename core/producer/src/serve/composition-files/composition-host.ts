import type { SeekframeError } from '@seekframe/composition';
import type { FindFont } from '../fonts/font-faces.js';

export type { FindFont, FontFaces, FontFile } from '../fonts/font-faces.js';

/** A remote URL answered from a local copy or the network, whole. */
export interface FetchedFile {
  contentType: string;
  body: Uint8Array;
  /** The local file it was read from (Node hosts), for messages and tests. */
  file?: string;
  /** Where a network file finally came from (after redirects): its stylesheet's relative url()s resolve against it. */
  finalUrl?: string;
}

/** A file of the composition folder. */
export interface ProjectFile {
  /** Its path relative to the composition folder, POSIX (a folder answers with its `index.html`). */
  path: string;
  text(): Promise<string>;
  /** The file as it is, honouring a `Range` header (media elements ask for ranges). */
  respond(range: string | undefined): Response | Promise<Response>;
}

/**
 * What differs between the places a composition is served from: the render's and `seekframe
 * preview`'s loopback server and the Node templates read a folder and `node_modules`
 * (serve/node-composition-host.ts); the deploy templates without `node_modules` at run time serve
 * what the rule produced at build time (export-composition-files.ts). The rule itself
 * (serve-composition-file.ts) never touches a file system or a network.
 */
export interface CompositionHost {
  /**
   * The file at `path` (decoded, relative to the composition folder, as the page asked for it:
   * it may contain `..`, which the host refuses). Null when it does not exist; a Response to answer
   * as it is (e.g. 403 for a path that leaves the folder). `request` is the page's request; absent
   * when the rule reads a file for itself (a linked stylesheet), which is nobody's failed request.
   */
  projectFile(path: string, request?: Request): Promise<ProjectFile | Response | null>;
  /** The installed package file an npm CDN URL stands for (jsdelivr, unpkg), or null. */
  packageFile(url: string): Promise<FetchedFile | null>;
  /**
   * Any other remote URL, from the network with the host's limits; throws a SeekframeError
   * (`remote-asset-failed`) naming the URL. Absent: remote URLs that are not installed packages or
   * Google Fonts are not answered (404).
   */
  networkFile?(url: string, referrer: string | undefined): Promise<FetchedFile>;
  findFont: FindFont;
  /** A woff2 file of an installed `@fontsource` package (null: no such package or file). */
  fontFile(id: string, name: string, request: Request): Promise<Response | null>;
  /** A path the page asked for that answered 404 (the render fails with it; previews may ignore it). */
  reportMissing?(path: string, request: Request): void;
  /** An HTML file the rule could not prepare (e.g. a broken sub-composition). */
  reportProblem?(error: SeekframeError): void;
}
