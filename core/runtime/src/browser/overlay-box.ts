/**
 * Styles an overlay copies from the element it covers on every seek, so author CSS and GSAP
 * animating that element move, fade, clip and round the overlay too.
 */
export const MIRRORED_STYLES = [
  'transform',
  'transform-origin',
  'opacity',
  'filter',
  'border-radius',
  'clip-path',
  'mix-blend-mode',
  'object-fit',
  'object-position',
  'z-index',
] as const;

/**
 * Puts an overlay element (a graded canvas, a pre-extracted video frame) exactly over another
 * element's border box, as a positioned sibling: `fixed` when the element is fixed (its viewport
 * rectangle), else `absolute` at its offset. Both overlays in the runtime need the same box, so
 * it is computed in one place.
 */
export function placeOverBox(style: CSSStyleDeclaration, element: HTMLElement, fixed: boolean): void {
  style.setProperty('position', fixed ? 'fixed' : 'absolute');
  if (fixed) {
    const rect = element.getBoundingClientRect();
    style.left = `${rect.left}px`;
    style.top = `${rect.top}px`;
  } else {
    style.left = `${element.offsetLeft}px`;
    style.top = `${element.offsetTop}px`;
  }
  style.width = `${element.offsetWidth}px`;
  style.height = `${element.offsetHeight}px`;
  style.margin = '0';
  style.border = '0';
  style.boxSizing = 'border-box';
  style.pointerEvents = 'none';
}
