/**
 * Files the user names (imports, exports, "save file as asset") go through VS Code's file system,
 * never node:fs: in a remote window Satchel runs on the user's own machine while the workspace is
 * on an SSH host, in WSL or in a container, and its files are `vscode-remote:` Uris that only
 * VS Code can read. A Uri becomes a path on this machine only through `localPath`, here.
 */
import * as vscode from 'vscode';
import { DomainError } from '../core/errors.ts';
import { importFileFromBytes, type EntryKind, type ImportTree, type ReadImportFile } from '../core/import/importTree.ts';
import type { ArchiveFiles } from '../core/import/piecesArchive.ts';

/** How a Uri is named to the user and in an import's sources: a local file by its path, anything else in full. */
export function uriLabel(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}

/** The last segment of a Uri's path (`Untitled-1` for an untitled document). */
export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').filter(Boolean).pop() ?? uri.path;
}

/**
 * The path on this machine of a file this process's host reads itself (a model file it copies
 * beside the library). A file of a remote workspace has none: refused with what to do instead.
 */
export function localPath(uri: vscode.Uri, what: string): string {
  if (uri.scheme !== 'file') {
    throw new Error(
      `${what} must be on this computer, where Satchel keeps its library; ${uriLabel(uri)} is not. ` +
        'Choose "Show Local" in the file dialog, or copy the file to this computer first.',
    );
  }
  return uri.fsPath;
}

/** Where a save dialog opens: the first workspace folder (local or remote), with the proposed name. */
export function defaultSaveUri(fileName: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, fileName) : undefined;
}

export async function writeWorkspaceFile(uri: vscode.Uri, content: string | Uint8Array): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
}

function kindOf(type: vscode.FileType): EntryKind {
  // Links found in a folder are not followed (as the CLI's walk of the disk does not).
  if (type & vscode.FileType.SymbolicLink) return 'other';
  if (type & vscode.FileType.Directory) return 'directory';
  return type & vscode.FileType.File ? 'file' : 'other';
}

/** The import's walk over VS Code's file system. */
export const workspaceTree: ImportTree<vscode.Uri> = {
  kind: async (uri) => ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory ? 'directory' : 'file'),
  entries: async (directory) =>
    (await vscode.workspace.fs.readDirectory(directory)).map(([name, type]) => ({ name, kind: kindOf(type), location: vscode.Uri.joinPath(directory, name) })),
  label: uriLabel,
};

/** One file of an import, read through VS Code; a missing or unreadable file is that file's failure. */
export async function readImportUri(uri: vscode.Uri): Promise<ReadImportFile> {
  const name = uriLabel(uri);
  try {
    return importFileFromBytes(name, await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof DomainError || error instanceof vscode.FileSystemError) return { name, error: (error as Error).message };
    throw error;
  }
}

/** A Pieces export-tool archive through VS Code's file system (the folder may be in a remote window's workspace). */
export function workspaceArchive(folder: vscode.Uri): ArchiveFiles {
  const at = (path: string): vscode.Uri => vscode.Uri.joinPath(folder, ...path.split('/'));
  return {
    label: uriLabel(folder),
    read: async (path) => {
      try {
        return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(at(path)));
      } catch (error) {
        if (error instanceof vscode.FileSystemError) return undefined;
        throw error;
      }
    },
    jsonFiles: async (path) => {
      try {
        return (await vscode.workspace.fs.readDirectory(at(path)))
          .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.json'))
          .map(([name]) => name)
          .sort();
      } catch (error) {
        if (error instanceof vscode.FileSystemError) return [];
        throw error;
      }
    },
    isFolder: async (path) => {
      try {
        return ((await vscode.workspace.fs.stat(at(path))).type & vscode.FileType.Directory) !== 0;
      } catch (error) {
        if (error instanceof vscode.FileSystemError) return false;
        throw error;
      }
    },
  };
}
