// Test helpers for the Vercel template: the local Blob stand-in.
export { startBlobFake, type BlobFake } from './testing/blob-fake-server.js';
