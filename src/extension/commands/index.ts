/**
 * Every command, as one map registered in a loop. Handlers' failures are shown to the user (with
 * the log one click away) and rethrown, so callers of executeCommand see them too.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
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
import type { CommandHandler, CommandMap, Services } from './services.ts';

export function allCommands(services: Services): CommandMap {
  return {
    ...assetCommands(services),
    ...conversationCommands(services),
    ...modelCommands(services),
    ...serverCommands(services),
    ...importCommands(services),
    ...piecesImportCommands(services),
    ...snippetCommands(services),
    ...historyCommands(services),
    ...syncCommands(services),
    ...agentChangeCommands(services),
    ...trashCommands(services),
    ...connectCommands(services),
    ...secretCommands(services),
  };
}

/**
 * Registers the commands the manifest contributes (`ids`; test/extension/manifest.test.ts holds the
 * two to the same list) and builds their handlers when one first runs: building them compiles every
 * command module's code, which activation, counted by VS Code as Satchel's, has no use for
 * (docs/performance.md, activation).
 */
export class Commands extends Owner {
  readonly ids: readonly string[];
  private readonly services: Services;
  private handlers: CommandMap | undefined;

  constructor(services: Services, ids: readonly string[]) {
    super();
    this.services = services;
    this.ids = ids;
    for (const id of ids) {
      this._register(vscode.commands.registerCommand(id, reported(id, (...args: never[]) => this.handler(id)(...args), services)));
    }
  }

  private handler(id: string): CommandHandler {
    this.handlers ??= allCommands(this.services);
    const handler = this.handlers[id];
    if (!handler) throw new Error(`No handler for ${id}.`);
    return handler;
  }
}

/** The handler, with its failure shown to the user (the log one click away) and rethrown. */
function reported<Args extends never[]>(id: string, handler: (...args: Args) => unknown, services: Services): (...args: Args) => Promise<unknown> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      services.log.error(`${id} failed`, error);
      void vscode.window.showErrorMessage(`Satchel: ${message}`, 'Show Log').then((choice) => {
        if (choice) services.log.show();
      });
      throw error;
    }
  };
}
