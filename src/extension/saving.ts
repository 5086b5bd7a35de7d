/**
 * What every way of saving and using the library starts from: the server connection (or a clear
 * error), a progress indicator, and saving a text as a new asset. Commands, drag and drop and the
 * editor's documents share these.
 */
import * as vscode from 'vscode';
import type { Asset } from '../core/piecesTypes.ts';
import type { ServerController, Connection } from './serverController.ts';

/** The connection, or a clear error the command wrapper shows. */
export function connected(server: ServerController): Connection {
  const connection = server.connection;
  if (!connection) throw new Error('Satchel has no server connection yet (see Satchel: Show Log).');
  return connection;
}

/** Runs `work` with a window progress indicator. */
export function withStatus<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, work);
}

export interface TextToSave {
  readonly text: string;
  /** A ClassificationSpecific (`ts`); the host classifies the text when absent. */
  readonly language?: string | undefined;
  readonly name?: string | undefined;
}

/** Saves a text as a new asset of this window's application; refuses an empty one. */
export async function saveText(server: ServerController, { text, language, name }: TextToSave): Promise<Asset> {
  if (!text.trim()) throw new Error('There is nothing to save: the text is empty.');
  const { client } = connected(server);
  const application = await server.application();
  return withStatus('Saving to Satchel…', () =>
    client.assets.createFromText({ text, application, ...(language ? { language } : {}), ...(name ? { name } : {}) }),
  );
}
