export type { StoragePort, StorageObjectInfo, StorageBody, StoragePutOptions, ByteRange } from './storage-port.js';
export { parseStorageKey, MAX_STORAGE_KEY_BYTES } from './storage-key.js';
export { createLocalFolderStorage, type LocalFolderStorage, type LocalFolderStorageOptions } from './local-folder-storage.js';
export { putFile, getFile, getText } from './storage-files.js';
