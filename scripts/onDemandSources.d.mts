// Types of scripts/onDemandSources.mjs, for the tests that import it.
import type { BuildOptions, BuildResult, Plugin } from 'esbuild';
export declare const onDemandSources: { readonly 'src/extension/commands/all.ts': 'extensionCommands.cjs'; readonly 'src/extension/agents/agentHandlers.ts': 'agentHandlers.cjs'; readonly 'src/extension/agents/connectFlows.ts': 'agentConnect.cjs'; readonly 'src/extension/history/historyFlows.ts': 'historyFlows.cjs' };
export declare const SHARED_PREFIX: 'satchel-shared:';
export declare function buildOnDemandSources(
  esbuild: typeof import('esbuild'),
  main: BuildOptions & { outfile: string; plugins: Plugin[] },
  options: (entry: BuildOptions) => BuildOptions,
  bundleOf?: Record<string, string>,
): Promise<{ plugin: Plugin; files: Record<string, string[]> }>;
export declare function importsFromShared(text: string): Record<string, string[]>;
export declare function filesOf(result: BuildResult<{ metafile: true }>): string[];
