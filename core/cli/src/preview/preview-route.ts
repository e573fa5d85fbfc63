/** Everything the preview adds lives under this prefix; other paths are the project's files. */
export const PREVIEW_ROUTE = '/__seekframe/preview/';
