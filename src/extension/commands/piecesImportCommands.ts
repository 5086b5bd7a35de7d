/**
 * Satchel: Import from Pieces… — a Pieces user's whole library in one step: from the running
 * Pieces OS (found on its ports, or at an address given), read by the host over the Pieces
 * interface; or from the folder Pieces' export tool wrote. A cancellable progress notification,
 * then a summary; run again, it brings only what is new or changed.
 */
import * as vscode from 'vscode';
import { progressShare } from '../../core/import/formats.ts';
import { piecesArchiveParts, piecesArchiveRecords } from '../../core/import/piecesArchive.ts';
import type { ImportProgress, ImportSummary } from '../../client/imports.ts';
import { connected, type CommandMap, type Services } from './services.ts';
import { workspaceArchive } from '../workspaceImports.ts';

/** What the command imports from: a running Pieces OS (`url` undefined: found on its ports), or an export folder. */
export type PiecesSource = { readonly url?: string | undefined } | { readonly folder: vscode.Uri };

const DEFAULT_ADDRESS = 'http://localhost:39300';

async function pickSource(): Promise<PiecesSource | undefined> {
  const items: Array<vscode.QuickPickItem & { readonly choice: 'found' | 'address' | 'folder' }> = [
    { label: '$(plug) The running Pieces OS', detail: 'Found on its ports (39300–39333, 1000); Pieces OS must be running.', choice: 'found' },
    { label: '$(link) Pieces OS at an address…', detail: `On this machine, e.g. ${DEFAULT_ADDRESS}`, choice: 'address' },
    { label: "$(folder) A folder Pieces' export tool wrote…", detail: 'The folder with manifest.json (raw/ or data/ inside).', choice: 'folder' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Import from Pieces', placeHolder: 'Where is your Pieces library?' });
  switch (picked?.choice) {
    case undefined:
      return undefined;
    case 'found':
      return {};
    case 'address': {
      const url = await vscode.window.showInputBox({ title: 'Pieces OS address', value: DEFAULT_ADDRESS, prompt: 'The address Pieces OS serves on this machine' });
      return url === undefined || url.trim() === '' ? undefined : { url: url.trim() };
    }
    case 'folder': {
      const folders = await vscode.window.showOpenDialog({ title: "The folder Pieces' export tool wrote", canSelectFolders: true, canSelectFiles: false, openLabel: 'Import' });
      return folders?.[0] ? { folder: folders[0] } : undefined;
    }
  }
}

function describe(summary: ImportSummary): string {
  const parts = [`${summary.imported.toLocaleString()} snippets imported`];
  if (summary.updated > 0) parts.push(`${summary.updated.toLocaleString()} updated`);
  if (summary.duplicates > 0) parts.push(`${summary.duplicates.toLocaleString()} already here`);
  if (summary.conversations) parts.push(`${summary.conversations.toLocaleString()} conversations`);
  if (summary.failed > 0) parts.push(`${summary.failed.toLocaleString()} failed`);
  const from = summary.source !== undefined ? ` from ${summary.source}` : '';
  return `${summary.cancelled ? 'Import cancelled (run it again to go on)' : 'Import finished'}${from}: ${parts.join(', ')}.`;
}

export function piecesImportCommands(s: Services): CommandMap {
  return {
    'satchel.importFromPieces': async (given?: PiecesSource): Promise<ImportSummary | undefined> => {
      const source = given ?? (await pickSource());
      if (source === undefined) return undefined;
      const { client } = connected(s.server);
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Importing from Pieces', cancellable: true },
        async (progress, token) => {
          const stop = new AbortController();
          const cancel = token.onCancellationRequested(() => stop.abort());
          let shown = 0;
          const onProgress = (p: ImportProgress): void => {
            // A Pieces OS import knows its parts up front; the snippets found grow part by part.
            const share = 100 * (p.files ? Math.min(1, p.filesDone / p.files) : progressShare(p));
            progress.report({ increment: Math.max(0, share - shown), message: `${p.imported.toLocaleString()} imported, ${(p.updated + p.duplicates).toLocaleString()} already here` });
            shown = Math.max(shown, share);
          };
          try {
            if ('folder' in source) return await importFolder(s, source.folder, stop.signal, onProgress);
            return await client.imports.importPieces(source.url, { signal: stop.signal, onProgress });
          } finally {
            cancel.dispose();
          }
        },
      );
      s.log.info(describe(summary));
      for (const failure of summary.failures) s.log.warn(`import from Pieces: ${failure.source}: ${failure.reason}`);
      const show = summary.failed > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`Satchel: ${describe(summary)}`, ...(summary.failed > 0 ? ['Show Failures'] : [])).then((choice) => {
        if (choice) s.log.show();
      });
      return summary;
    },
  };
}

/** An export folder (wherever VS Code reaches it), read here and sent to the host as parsed parts (the same records as a live import). */
async function importFolder(s: Services, folder: vscode.Uri, signal: AbortSignal, onProgress: (p: ImportProgress) => void): Promise<ImportSummary> {
  const files = workspaceArchive(folder);
  if ((await piecesArchiveRecords(files)) === undefined) {
    throw new Error(`${files.label} is not a folder Pieces' export tool wrote (it has manifest.json, and raw/ or data/)`);
  }
  const { client } = connected(s.server);
  const parts = await piecesArchiveParts(files);
  return client.imports.importFiles(
    parts.map((part) => ({ name: part.name, read: async () => ({ name: part.name, parsed: await part.read() }) })),
    { signal, onProgress },
  );
}
