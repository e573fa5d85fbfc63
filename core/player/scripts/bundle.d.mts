export declare const entry: string;
export declare const outfile: string;
/** Returns the bundle source; writes `dist/seekframe-player.js` unless `write` is false. */
export declare function bundlePlayer(options?: { write?: boolean }): Promise<string | undefined>;
