/**
 * Where this extension host runs, and what to tell the user when it is not their own machine.
 * Satchel declares extensionKind ["ui", "workspace"], so in an SSH, WSL or container window it runs
 * beside the UI and serves the one library on the user's computer. It runs on the remote machine
 * only when it must or is told to: a browser window has no local side (Codespaces, code-server,
 * vscode.dev), or it is installed only there, or `remote.extensionKind` forces it. Its library
 * there is another one, empty at first and, in a container or codespace, gone with it. Plain
 * functions of the facts (no vscode), so tests read them.
 */

export interface HostFacts {
  /** `vscode.env.remoteName`: 'ssh-remote', 'wsl', 'dev-container', 'codespaces'… (undefined in a local window). */
  readonly remoteName: string | undefined;
  /** This extension host is the workspace's (extension.extensionKind === Workspace), not the UI's. */
  readonly onWorkspaceSide: boolean;
  /** The window is a browser (`vscode.env.uiKind === Web`): there is no local machine to run on. */
  readonly inBrowser: boolean;
  /** The machine this host runs on (its host name). */
  readonly machine: string;
}

export interface LibraryFacts {
  readonly dataDir: string;
  /** No assets and no conversations in the data directory this window serves or uses. */
  readonly empty: boolean;
  /** `satchel.sync.remote`: a library that syncs is brought here by the sync. */
  readonly syncRemote: string | undefined;
  /** `satchel.remote.warnOnRemoteHost`. */
  readonly warn: boolean;
}

export type RemoteAction = 'Set Sync Remote…' | 'Learn More' | "Don't Show Again";

export interface RemoteNotice {
  readonly message: string;
  readonly actions: readonly RemoteAction[];
}

/** Whether the library this window serves is on another machine than the user's own. */
export function runsRemotely(host: HostFacts): boolean {
  return host.remoteName !== undefined && host.remoteName !== '' && host.onWorkspaceSide;
}

const PLACES: Readonly<Record<string, { readonly place: string; readonly lost?: string }>> = {
  'ssh-remote': { place: 'on the SSH host' },
  wsl: { place: 'in WSL' },
  'dev-container': { place: 'in the dev container', lost: 'is lost when the container is rebuilt' },
  'attached-container': { place: 'in the container', lost: 'is lost when the container is removed' },
  codespaces: { place: 'in the codespace', lost: 'is lost when the codespace is deleted' },
  tunnel: { place: "on the tunnel's machine" },
};

/** The notice for a window whose library is on a remote machine and empty, or undefined when there is nothing to say. */
export function remoteNotice(host: HostFacts, library: LibraryFacts): RemoteNotice | undefined {
  if (!runsRemotely(host) || !library.empty || library.syncRemote || !library.warn) return undefined;
  const { place, lost } = PLACES[host.remoteName ?? ''] ?? { place: 'on the remote machine' };
  const why = host.inBrowser ? ': a browser window has no local side' : ', because it is installed only there or remote.extensionKind puts it there';
  const fix = host.inBrowser
    ? 'Set a sync remote to bring your library here and keep what you save.'
    : 'Install Satchel on your computer to use your own library in this window, or set a sync remote.';
  return {
    message: `Satchel is running ${place} (${host.machine}), not on your computer${why}. Its library there, ${library.dataDir}, is empty${lost ? ` and ${lost}` : ''}. ${fix}`,
    actions: ['Set Sync Remote…', 'Learn More', "Don't Show Again"],
  };
}

/** The log's line whenever the library is on a remote machine, empty or not. */
export function remoteLogLine(host: HostFacts, dataDir: string): string {
  return `Satchel runs on the remote machine ${host.machine} (${host.remoteName}); its library there is ${dataDir}, not the one on your computer.`;
}
