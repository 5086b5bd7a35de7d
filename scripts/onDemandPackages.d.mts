// Types of scripts/onDemandPackages.mjs, for the tests that import it.
import type { Plugin } from 'esbuild';
export declare const onDemandPackages: { readonly yaml: 'yaml.cjs'; readonly 'js-yaml': 'jsYaml.cjs'; readonly 'jsonc-parser': 'jsoncParser.cjs'; readonly 'smol-toml': 'smolToml.cjs'; readonly ws: 'ws.cjs' };
export declare function onDemandEntries(): { stdin: { contents: string; resolveDir: string; loader: 'js' }; outfile: string }[];
export declare function onDemandSource(file: string, names: readonly string[]): string;
export declare function onDemandExports(dist: string): Record<string, string[]>;
export declare function onDemandPlugin(exportsByPackage: Record<string, string[]>, aliases: Record<string, string>): Plugin;
