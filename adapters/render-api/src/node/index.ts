// Node-only helpers: the local runner, stores on disk, the preview assets from disk, serveLocal.
export {};
