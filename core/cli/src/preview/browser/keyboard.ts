import { isTextEntry } from './dom.js';

/** What a key does; returning `false` leaves the key to the browser. */
export type KeyAction = (e: KeyboardEvent) => unknown;

/**
 * The studio's keys, in one table: `keys` by `KeyboardEvent.key` (letters lower-case), `ctrl` for
 * Ctrl/Cmd combinations. Keys act when the focus is not typing in a box; an action that returns
 * false lets the key do what it would do anyway.
 */
export function bindKeys(keys: Record<string, KeyAction>, ctrl: Record<string, KeyAction>): void {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || isTextEntry(e.target)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const action = e.ctrlKey || e.metaKey ? ctrl[key] : e.altKey ? undefined : keys[key];
    if (!action || action(e) === false) return;
    e.preventDefault();
  });
  // A block is a button: without this, Space would also "click" (select) it on key up.
  document.addEventListener('keyup', (e) => {
    if (e.key === ' ' && e.target instanceof Element && e.target.closest('.tl-clip')) e.preventDefault();
  });
}

/** Space plays and pauses everywhere except on controls that use it (buttons, checkboxes, summaries); blocks are the exception. */
export function spaceIsTheControls(target: EventTarget | null): boolean {
  if (!(target instanceof Element) || target.closest('.tl-clip')) return false;
  return target.matches('button, summary, input, a[href], select, [role=separator]');
}
