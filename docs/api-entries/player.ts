/**
 * `<seekframe-player>`: the element's properties, methods and events, from `@seekframe/player`
 * (importing the package defines the element). Its events (`ready`, `timeupdate`, `play`, `pause`,
 * `ended`, `error`, `audioblocked`) are listed on the guide's player page; how to put it in a page,
 * a bundle or a React app: the guide's "The player in your own app".
 * @module The player element
 */
export { SeekframePlayer } from '@seekframe/player';
