import { SeekframePlayer } from './seekframe-player.js';

export { SeekframePlayer };

// Importing the module defines the element once, even when two copies of the bundle are loaded.
if (typeof customElements !== 'undefined' && !customElements.get('seekframe-player')) {
  customElements.define('seekframe-player', SeekframePlayer);
}

declare global {
  interface HTMLElementTagNameMap {
    'seekframe-player': SeekframePlayer;
  }
}
