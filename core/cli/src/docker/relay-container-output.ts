import { CONTAINER_OUTPUT, CONTAINER_PROJECT } from './docker-argv.js';

/** Where the container's paths are on this machine. */
export interface PathMapping {
  /** The output file or folder on the host (absolute). */
  output: string;
  /** How the host CLI shows it (relative to the cwd when below it). */
  outputShown: string;
  /** The project folder on the host, mounted at /project. */
  projectRoot: string;
  /** The output's name inside /output. */
  outputName: string;
}

/**
 * Turns the container CLI's output into what the same render prints on the host: `--json` lines
 * stay JSON (the `complete` event's output becomes the host path), human lines get host paths in
 * place of /output/<name> and /project. Returns a writer that takes chunks and emits whole lines;
 * `flush()` emits a last line without a newline.
 */
export function containerOutputRelay(
  mapping: PathMapping,
  json: boolean,
  write: (text: string) => void,
): { push(chunk: string): void; flush(): void } {
  const containerOutput = `${CONTAINER_OUTPUT}/${mapping.outputName}`;
  const humanLine = (line: string): string =>
    line
      .split(containerOutput)
      .join(mapping.outputShown)
      .replace(new RegExp(`(^|[\\s'"(])${CONTAINER_PROJECT}(?=[/\\s'")]|$)`, 'g'), `$1${mapping.projectRoot}`);
  const jsonLine = (line: string): string => {
    try {
      const event = JSON.parse(line) as { type?: unknown; output?: unknown };
      if (event && event.type === 'complete' && event.output === containerOutput)
        return JSON.stringify({ ...event, output: mapping.output });
    } catch {
      // Not an event (a line from the engine itself): shown as it came.
    }
    return line;
  };
  const convert = json ? jsonLine : humanLine;
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) write(`${convert(line)}\n`);
    },
    flush() {
      if (pending) write(convert(pending));
      pending = '';
    },
  };
}
