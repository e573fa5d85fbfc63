import type { EditHistory, EditResult } from '../studio/studio-types.js';
import { ApiFailure, studioJson } from './api.js';
import { element } from './dom.js';
import type { StudioFacts } from './studio-facts.js';
import type { VariablesPanel } from './variables-panel.js';

/**
 * "Save as defaults": the values set in the Variables panel become the declared defaults of the
 * composition shown (`POST variables/defaults`, the smallest edit of `data-composition-variables`;
 * undone like a timeline edit). The reload that follows shows them as the defaults.
 */
export function bindSaveDefaults(facts: StudioFacts, variables: VariablesPanel, history: (h: EditHistory) => void): void {
  const message = element('variables-message');
  element('save-defaults').addEventListener('click', async () => {
    const file = facts.file;
    const hash = facts.source(file)?.hash;
    if (!hash) {
      message.textContent = `${file} is still being read; try again.`;
      return;
    }
    try {
      const result = await studioJson<EditResult>('variables/defaults', {
        method: 'POST',
        body: { file, hash, values: variables.current },
      });
      facts.written(result);
      history(result.history);
      message.textContent = `Saved as the defaults in ${file}.`;
    } catch (error) {
      message.textContent = error instanceof ApiFailure ? `${error.error.code}: ${error.error.message}` : String(error);
    }
  });
}
