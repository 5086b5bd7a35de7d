/** A VS Code cancellation token as the AbortSignal the client's requests take. */
import type * as vscode from 'vscode';

export function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  else token.onCancellationRequested(() => abort.abort());
  return abort.signal;
}
