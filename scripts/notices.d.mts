import type { Plugin } from 'esbuild';

export function packageRootOf(file: string): string | undefined;
export function bundledPackagesPlugin(roots: Set<string>): Plugin;
export function thirdPartyNotices(dirs: readonly string[]): string;
