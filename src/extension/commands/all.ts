/**
 * Every command's handler, built when a command first runs. The extension's bundle takes this module
 * from a bundle of its own (dist/extensionCommands.cjs, scripts/onDemandSources.mjs), loaded then: the
 * command modules are a fifth of the extension's code, and activation, which VS Code counts as
 * Satchel's, has no use for them (docs/performance.md, activation).
 */
import { assetCommands } from './assetCommands.ts';
import { conversationCommands } from './conversationCommands.ts';
import { modelCommands } from './modelCommands.ts';
import { serverCommands } from './serverCommands.ts';
import { importCommands } from './importCommands.ts';
import { piecesImportCommands } from './piecesImportCommands.ts';
import { snippetCommands } from './snippetCommands.ts';
import { historyCommands } from './historyCommands.ts';
import { syncCommands } from './syncCommands.ts';
import { agentChangeCommands } from './agentChangeCommands.ts';
import { trashCommands } from './trashCommands.ts';
import { connectCommands } from './connectCommands.ts';
import { secretCommands } from './secretCommands.ts';
import type { CommandMap, Services } from './services.ts';

/** Each area's handlers, as one map. */
const AREAS: ReadonlyArray<(services: Services) => CommandMap> = [
  assetCommands,
  conversationCommands,
  modelCommands,
  serverCommands,
  importCommands,
  piecesImportCommands,
  snippetCommands,
  historyCommands,
  syncCommands,
  agentChangeCommands,
  trashCommands,
  connectCommands,
  secretCommands,
];

export function allCommands(services: Services): CommandMap {
  const handlers: CommandMap = {};
  for (const area of AREAS) Object.assign(handlers, area(services));
  return handlers;
}
