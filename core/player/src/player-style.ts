/** The player's shadow-root styles: the stage, the scaled iframe, the error message, the outline and the controls. */
export const PLAYER_STYLE = `
:host { display: inline-block; vertical-align: top; position: relative; background: #000; color: #eee; font: 12px system-ui, sans-serif; }
:host([hidden]) { display: none; }
.stage { position: relative; overflow: hidden; }
iframe { position: absolute; left: 0; top: 0; border: 0; transform-origin: 0 0; background: transparent; }
iframe.loading { opacity: 0; pointer-events: none; }
.message { position: absolute; inset: 0; z-index: 1; padding: 8px; background: rgba(120, 0, 0, 0.85); white-space: pre-wrap; overflow: auto; }
.highlight { position: absolute; z-index: 1; pointer-events: none; box-sizing: border-box; border: 2px solid #3b9eff; box-shadow: 0 0 0 1px rgba(0, 0, 0, 0.6); }
.highlight.hidden-clip { border-style: dashed; opacity: 0.7; }
.controls { display: flex; gap: 6px; align-items: center; padding: 4px 6px; background: #111; }
.controls input { flex: 1; }
.controls button { min-width: 2.5em; }
`;
