/** The studio's JSON and event routes live under this prefix (the page and its scripts under PREVIEW_ROUTE). */
export const STUDIO_ROUTE = '/__seekframe/studio/';
