/**
 * An import's files read through VS Code's file system, as workspaceFiles.ts says why: the files of a
 * remote window's workspace are on its host, and only VS Code reads them. Used by the import commands
 * alone (dist/extensionCommands.cjs), apart from workspaceFiles.ts, which activation's code uses too.
 */
import * as vscode from 'vscode';
import { DomainError } from '../core/errors.ts';
import { importFileFromBytes, type EntryKind, type ImportTree, type ReadImportFile } from '../core/import/importTree.ts';
import type { ArchiveFiles } from '../core/import/piecesArchive.ts';
import { uriLabel } from './workspaceFiles.ts';

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
