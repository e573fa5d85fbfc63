export { createS3ObjectStore, type S3StoreOptions } from './s3-object-store.js';
export { SHORT_LIVED_SUFFIXES, SHORT_LIVED_TAG, SHORT_LIVED_DAYS, isShortLivedKey } from './short-lived-keys.js';
