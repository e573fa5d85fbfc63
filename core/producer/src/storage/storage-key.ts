// The key rule is pure and shared with the Worker templates (no `node:` there): it lives in
// @seekframe/composition, and the storage port re-exports it from here.
export { parseStorageKey, MAX_STORAGE_KEY_BYTES } from '@seekframe/composition';
