/**
 * Entry point. Activation only builds the UI and returns; the server starts right after, and a
 * failure is shown with "Show Log" / "Retry", never thrown at the user.
 */
import * as vscode from 'vscode';
import { SatchelExtension } from './extension/satchelExtension.ts';
import { HostElection } from './hosting/hostElection.ts';

let extension: SatchelExtension | undefined;

export function activate(context: vscode.ExtensionContext): SatchelExtension | undefined {
  try {
    extension = new SatchelExtension(String(context.extension.packageJSON.version ?? '0.0.0'), (options) => new HostElection(options), context.extension.extensionKind);
  } catch (error) {
    void reportActivationFailure(context, error);
    return undefined;
  }
  const started = extension;
  context.subscriptions.push({ dispose: () => void started.shutdown() });
  setImmediate(() => void started.start());
  return started;
}

export async function deactivate(): Promise<void> {
  const current = extension;
  extension = undefined;
  await current?.shutdown();
}

async function reportActivationFailure(context: vscode.ExtensionContext, error: unknown): Promise<void> {
  const channel = vscode.window.createOutputChannel('Satchel', { log: true });
  context.subscriptions.push(channel);
  channel.error(`Activation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const choice = await vscode.window.showErrorMessage(`Satchel failed to start: ${(error as Error)?.message ?? error}`, 'Show Log', 'Retry');
  if (choice === 'Show Log') channel.show();
  else if (choice === 'Retry') activate(context);
}
