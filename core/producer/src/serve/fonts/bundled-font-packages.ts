/**
 * The `@fontsource` packages the renderer depends on (core/producer/package.json): the most used
 * Google families, Noto (the starter's face) and the stand-ins for system names (Arimo, Tinos,
 * Cousine, Gelasio, Carlito, Caladea). `seekframe doctor` checks they resolve.
 */
export const BUNDLED_FONT_PACKAGES = [
  'arimo',
  'caladea',
  'carlito',
  'cousine',
  'gelasio',
  'inter',
  'jetbrains-mono',
  'lato',
  'montserrat',
  'noto-sans',
  'noto-sans-display',
  'noto-sans-mono',
  'open-sans',
  'playfair-display',
  'poppins',
  'roboto',
  'tinos',
] as const;
