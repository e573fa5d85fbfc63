export declare const entry: string;
export declare const outfile: string;
export declare function bundlePreviewApp(options?: { write?: boolean }): Promise<string | undefined>;
