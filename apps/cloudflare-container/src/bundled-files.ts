import type { FileSource } from '@seekframe/render-api';

/** A file scripts/build.mjs embedded into the Worker bundle (text as is, binary as base64). */
export interface BundledFile {
  contentType: string;
  text?: string;
  base64?: string;
}

/** A FileSource over embedded files: the composition and the preview assets travel inside the Worker. */
export function bundledFileSource(files: Record<string, BundledFile>): FileSource {
  return {
    async read(path) {
      const file = Object.hasOwn(files, path) ? files[path] : undefined;
      if (!file) return null;
      if (file.text !== undefined) return { body: file.text, contentType: file.contentType };
      const binary = atob(file.base64 ?? '');
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return { body: bytes, contentType: file.contentType };
    },
  };
}
