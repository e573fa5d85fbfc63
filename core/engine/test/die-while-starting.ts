import type { Writable } from 'node:stream';
import puppeteer, { type Browser, type LaunchOptions, type Target } from 'puppeteer-core';
import { vi } from 'vitest';
import { processTree } from '../src/system/pin-to-cpu.js';

/**
 * Makes the chosen browser launches (1 = the first one from now on) die at the moment that left
 * puppeteer.launch waiting forever: after puppeteer's Target.setAutoAttach was answered, while it
 * waits for the first tab's page to attach (seen under load when a render's browsers were killed
 * while a replacement started). The browser and the kill are real; the hook only pins the moment:
 * at the browser's first target (the tab) it holds back puppeteer's commands to target sessions,
 * so the tab's page never attaches, and kills the browser once a round trip on the browser's own
 * session (answered after setAutoAttach) proves puppeteer has seen that answer.
 * Returns the spy: restore it with `mockRestore()`.
 */
export function killLaunchesWhileStarting(which: (launch: number) => boolean, strike: Strike = {}) {
  const launch = puppeteer.launch.bind(puppeteer);
  let launches = 0;
  return vi.spyOn(puppeteer, 'launch').mockImplementation((options: LaunchOptions = {}) => {
    launches++;
    if (!which(launches)) return launch(options);
    let struck = false;
    return launch({
      ...options,
      targetFilter: (target: Target) => {
        if (!struck) {
          struck = true;
          const browser = target.browser();
          strike.onBrowser?.(browser);
          const child = browser.process()!;
          holdSessionCommands(child.stdio[3] as Writable);
          void browser
            .version()
            .catch(() => undefined)
            .finally(() => {
              const tree = processTree(child.pid!);
              strike.trees?.push(tree);
              // A stopped process cannot notice that its parent died: it stays until someone kills it.
              if (strike.freezeChildren) for (const pid of tree.slice(1)) process.kill(pid, 'SIGSTOP');
              child.kill('SIGKILL');
            });
        }
        return options.targetFilter ? options.targetFilter(target) : true;
      },
    });
  });
}

export interface Strike {
  /** Receives each struck browser's process tree, read just before the kill (the browser first). */
  trees?: number[][];
  /** Stops (SIGSTOP) every process of the browser but the main one before killing that: children that outlive it. */
  freezeChildren?: boolean;
  /** Hears each struck launch's puppeteer Browser (e.g. to watch it being garbage-collected). */
  onBrowser?: (browser: Browser) => void;
}

/**
 * Makes every browser launch from now on hide its tabs from puppeteer, so puppeteer's own wait
 * for the first page times out after the launch's `timeout`, and puppeteer closes the browser
 * itself before it rejects (what it does when it gives up). Returns the spy.
 */
export function hidePageTargets() {
  const launch = puppeteer.launch.bind(puppeteer);
  return vi.spyOn(puppeteer, 'launch').mockImplementation((options: LaunchOptions = {}) =>
    launch({
      ...options,
      targetFilter: (target: Target) => {
        const shown = options.targetFilter ? options.targetFilter(target) : true;
        return shown && target.type() !== 'page';
      },
    }),
  );
}

/** Drops every CDP command for a target session written to the browser's pipe from now on (puppeteer writes a message, then its NUL). */
function holdSessionCommands(pipe: Writable): void {
  const write = pipe.write.bind(pipe) as (chunk: unknown, ...rest: unknown[]) => boolean;
  let dropTerminator = false;
  pipe.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (dropTerminator && text === '\0') {
      dropTerminator = false;
      return true;
    }
    if (text.includes('"sessionId":"')) {
      dropTerminator = true;
      return true;
    }
    return write(chunk, ...rest);
  }) as Writable['write'];
}
