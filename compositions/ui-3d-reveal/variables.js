// ui-3d-reveal, part 1 of 3: read the composition variables (coerced, clamped, defaulted) and
// small pure helpers (colour maths, seeded PRNG, seek-safe counters) shared by cards.js and scene.js.
(() => {
  'use strict';

  const ID = 'ui-3d-reveal';
  const DEFAULTS = {
    title: 'Meet Seekframe',
    subtitle: 'Turn any web page into video. Frame-exact.',
    accentColor: '#7c5cff',
    theme: 'dark',
    showBadge: true,
    badgeText: 'NEW',
    cardCount: 5,
  };
  const MAX_LENGTH = { title: 32, subtitle: 72, badgeText: 12 };
  const CARD_MIN = 1;
  const CARD_MAX = 6;
  const THEMES = ['dark', 'light', 'midnight'];

  // ---------- variables: partial maps and unexpected types fall back or are coerced ----------

  function readVariables() {
    let raw = {};
    try {
      raw = window.__seekframe?.getVariables?.() ?? {};
    } catch {
      raw = {};
    }
    if (raw === null || typeof raw !== 'object') raw = {};
    const {
      title = DEFAULTS.title,
      subtitle = DEFAULTS.subtitle,
      accentColor = DEFAULTS.accentColor,
      theme = DEFAULTS.theme,
      showBadge = DEFAULTS.showBadge,
      badgeText = DEFAULTS.badgeText,
      cardCount = DEFAULTS.cardCount,
    } = raw;
    return {
      title: toText(title, MAX_LENGTH.title) || DEFAULTS.title,
      // An empty subtitle is a legitimate choice: the line is simply left out.
      subtitle: toText(subtitle, MAX_LENGTH.subtitle) ?? DEFAULTS.subtitle,
      accentColor: toColor(accentColor) ?? DEFAULTS.accentColor,
      theme: toTheme(theme) ?? DEFAULTS.theme,
      showBadge: toBool(showBadge) ?? DEFAULTS.showBadge,
      badgeText: toText(badgeText, MAX_LENGTH.badgeText) || DEFAULTS.badgeText,
      cardCount: toCount(cardCount) ?? DEFAULTS.cardCount,
    };
  }

  function toText(value, maxLength) {
    if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
    if (typeof value !== 'string') return undefined;
    const clean = value.replace(/\s+/g, ' ').trim();
    return Array.from(clean).slice(0, maxLength).join('').trim();
  }

  function toColor(value) {
    if (typeof value !== 'string') return undefined;
    const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
    if (!m) return undefined;
    const hex = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1];
    return '#' + hex.toLowerCase();
  }

  function toTheme(value) {
    const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
    return THEMES.includes(name) ? name : undefined;
  }

  function toBool(value) {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value !== 0;
    if (typeof value !== 'string') return undefined;
    const s = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(s)) return true;
    if (['false', '0', 'no', 'off', ''].includes(s)) return false;
    return undefined;
  }

  function toCount(value) {
    const n = typeof value === 'string' ? Number(value.trim() || NaN) : typeof value === 'number' ? value : NaN;
    if (!Number.isFinite(n)) return undefined;
    return Math.min(CARD_MAX, Math.max(CARD_MIN, Math.round(n)));
  }

  // ---------- colour helpers: the accent drives a second hue and the text on it ----------

  function hexToRgb(hex) {
    const n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function rgbToHsl([r, g, b]) {
    r /= 255;
    g /= 255;
    b /= 255;
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b),
      l = (max + min) / 2;
    if (max === min) return [0, 0, l];
    const d = max - min;
    const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return [h * 60, s, l];
  }

  function hslToRgb([h, s, l]) {
    const k = (n) => (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
  }

  function applyAccent(stage, hex) {
    const rgb = hexToRgb(hex);
    const [h, s, l] = rgbToHsl(rgb);
    // A neighbouring hue gives gradients some life without leaving the user's colour family.
    const rgb2 = hslToRgb([(h + 38) % 360, Math.min(1, s * 1.05), Math.min(0.74, Math.max(0.45, l + 0.08))]);
    const lum = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
    stage.style.setProperty('--accent', hex);
    stage.style.setProperty('--accent-rgb', rgb.join(', '));
    stage.style.setProperty('--accent-2', `rgb(${rgb2.join(', ')})`);
    stage.style.setProperty('--accent-2-rgb', rgb2.join(', '));
    stage.style.setProperty('--on-accent', lum > 0.62 ? '#0b0c14' : '#ffffff');
    return h;
  }

  // Deterministic PRNG (mulberry32) so the dust field is identical in every render.
  function seeded(seed) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // A counter whose text is written by a property setter: GSAP assigns the property on every
  // render, including silent seeks, where onUpdate callbacks would not fire.
  function counter(el, format) {
    let v = 0;
    el.textContent = format(0);
    return {
      get v() {
        return v;
      },
      set v(x) {
        v = x;
        el.textContent = format(x);
      },
    };
  }

  const el = (tag, cls, html) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (html !== undefined) node.innerHTML = html;
    return node;
  };

  window.uiReveal = { ID, DEFAULTS, readVariables, applyAccent, seeded, counter, el };
})();
