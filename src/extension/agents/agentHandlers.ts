/**
 * What agents run when they are used: the snippet operations, the language-model tools' work and the
 * chat participant's answers. The extension's bundle takes this module from a bundle of its own
 * (dist/agentHandlers.cjs, scripts/onDemandSources.mjs), loaded when an agent first calls a tool or
 * `@satchel`: activation, which VS Code counts as Satchel's, only registers them (docs/performance.md,
 * activation). Exports functions only, as an on-demand module must.
 */
import type { ServerController } from '../serverController.ts';
import { SnippetOperations } from './snippetOperations.ts';

export { toolImplementations } from './toolImplementations.ts';
export { answerChat } from './chatAnswers.ts';

export function newSnippetOperations(server: ServerController): SnippetOperations {
  return new SnippetOperations(server);
}
