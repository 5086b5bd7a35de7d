/**
 * Every command, as one map registered in a loop. Handlers' failures are shown to the user (with
 * the log one click away) and rethrown, so callers of executeCommand see them too.
 */
import * as vscode from 'vscode';
import { Owner } from '../../core/lifecycle.ts';
import { allCommands } from './all.ts';
import type { CommandHandler, CommandMap, Services } from './services.ts';

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
