// Frame timing lives in @seekframe/composition so the preview page (a browser bundle) numbers
// frames with the same code the render uses; re-exported here for the producer's own modules.
export { frameCount, frameTime, frameAt, fpsFromNumber, defaultFps } from '@seekframe/composition';
