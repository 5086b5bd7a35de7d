/**
 * Satchel: Import Snippets… — files or folders picked (or passed as URIs by a menu or a test) are
 * imported through the host with a cancellable progress notification and a summary; the reasons
 * for failed items go to the log, one click away.
 */
import * as vscode from 'vscode';
import { findImportFiles } from '../../core/import/importTree.ts';
import { progressShare } from '../../core/import/formats.ts';
import type { ImportSummary } from '../../client/imports.ts';
import { connected, type CommandMap, type Services } from './services.ts';
import { uriLabel } from '../workspaceFiles.ts';
import { readImportUri, workspaceTree } from '../workspaceImports.ts';

type ImportArg = vscode.Uri | readonly vscode.Uri[] | undefined;

async function pick(arg: ImportArg, second?: readonly vscode.Uri[]): Promise<readonly vscode.Uri[] | undefined> {
  // From the explorer's context menu VS Code passes the clicked URI and then every selected one.
  if (second && second.length > 0) return second;
  if (arg) return arg instanceof vscode.Uri ? [arg] : arg;
  return vscode.window.showOpenDialog({
    title: 'Import snippets: VS Code snippet files, massCode, Pieces, Gist JSON, Raycast, the Snippets extension or JetBrains live templates',
    openLabel: 'Import',
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: true,
    filters: { 'Snippet files': ['json', 'code-snippets', 'xml'], 'All files': ['*'] },
  });
}

function describe(summary: ImportSummary): string {
  const parts = [`${summary.imported.toLocaleString()} imported`, `${summary.duplicates.toLocaleString()} skipped as duplicates`];
  if (summary.updated > 0) parts.splice(1, 0, `${summary.updated.toLocaleString()} updated (changed since the last import)`);
  if (summary.failed > 0) parts.push(`${summary.failed.toLocaleString()} failed`);
  return `${summary.cancelled ? 'Import cancelled: ' : 'Import finished: '}${parts.join(', ')}.`;
}

export function importCommands(s: Services): CommandMap {
  return {
    'satchel.importSnippets': async (arg?: ImportArg, selected?: readonly vscode.Uri[]): Promise<ImportSummary | undefined> => {
      const uris = await pick(arg, selected);
      if (!uris || uris.length === 0) return undefined;
      // Through VS Code's file system: the files may be in a remote window's workspace.
      const files = (await Promise.all(uris.map((uri) => findImportFiles(uri, workspaceTree)))).flat();
      if (files.length === 0) throw new Error('No .json, .code-snippets or .xml files were found there.');
      const { client } = connected(s.server);
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Importing snippets', cancellable: true },
        async (progress, token) => {
          const stop = new AbortController();
          const cancel = token.onCancellationRequested(() => stop.abort());
          let shown = 0;
          try {
            return await client.imports.importFiles(
              files.map((uri) => ({ name: uriLabel(uri), read: () => readImportUri(uri) })),
              {
                signal: stop.signal,
                onProgress: (p) => {
                  const share = 100 * progressShare(p);
                  // Across files the share restarts with each file's snippets; the bar only moves forward.
                  const which = files.length > 1 ? ` (file ${Math.min(p.filesDone + 1, files.length)} of ${files.length})` : '';
                  progress.report({ increment: Math.max(0, share - shown), message: `${p.imported.toLocaleString()} imported, ${p.duplicates.toLocaleString()} duplicates${which}` });
                  shown = Math.max(shown, share);
                },
              },
            );
          } finally {
            cancel.dispose();
          }
        },
      );
      s.log.info(describe(summary));
      for (const failure of summary.failures) s.log.warn(`import: ${failure.source}: ${failure.reason}`);
      const show = summary.failed > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`Satchel: ${describe(summary)}`, ...(summary.failed > 0 ? ['Show Failures'] : [])).then((choice) => {
        if (choice) s.log.show();
      });
      return summary;
    },
  };
}
