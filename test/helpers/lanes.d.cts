/** test/helpers/lanes.cjs: the slow lane's files, and them as jest path patterns under `rootDir`. */
export declare const SLOW: string[];
export declare function slowPatterns(rootDir: string): string[];
