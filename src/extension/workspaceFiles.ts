/**
 * Files the user names (imports, exports, "save file as asset") go through VS Code's file system,
 * never node:fs: in a remote window Satchel runs on the user's own machine while the workspace is
 * on an SSH host, in WSL or in a container, and its files are `vscode-remote:` Uris that only
 * VS Code can read. A Uri becomes a path on this machine only through `localPath`, here. (An import's
 * walk and reads are in workspaceImports.ts.)
 */
import * as vscode from 'vscode';

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
