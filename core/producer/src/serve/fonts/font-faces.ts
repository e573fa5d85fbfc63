/** One woff2 file of a `@fontsource` package. */
export interface FontFile {
  weight: number;
  style: 'normal' | 'italic';
  subset: string;
  /** The subset's `unicode-range`, when the package lists one. */
  unicodeRange?: string;
  /** File name inside the package's `files/` folder. */
  name: string;
}

/** A font package as the rule needs it: its family and faces, not where it is installed. */
export interface FontFaces {
  /** `inter` for `@fontsource/inter`. */
  id: string;
  family: string;
  files: FontFile[];
}

/** The installed `@fontsource/<id>` package, or null. */
export type FindFont = (id: string) => Promise<FontFaces | null>;
