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
import type { CommandMap, Services } from './services.ts';

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

export class Commands extends Owner {
  readonly ids: readonly string[];

  constructor(services: Services) {
    super();
    const map = allCommands(services);
    this.ids = Object.keys(map);
    for (const [id, handler] of Object.entries(map)) {
      this._register(vscode.commands.registerCommand(id, reported(id, handler, services)));
    }
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
