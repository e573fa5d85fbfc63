export declare const entry: string;
export declare const outfile: string;
export declare function bundleRuntime(options?: { write?: boolean }): Promise<string | undefined>;
