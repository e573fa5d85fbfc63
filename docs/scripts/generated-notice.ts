/** The first line of every generated file: where it comes from and how to remake it. */
export function generatedNotice(source: string): string {
  return `<!-- Generated from ${source} by docs/scripts/generate.ts (npm run docs:generate). Do not edit: change the source. -->`;
}
