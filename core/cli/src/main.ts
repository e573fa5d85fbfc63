/** Entry point used by bin/seekframe.js; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  void argv;
  return 0;
}
