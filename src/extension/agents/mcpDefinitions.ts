/**
 * Offers Satchel's MCP server (`/mcp` on the host's port) to VS Code agent mode with no
 * configuration. The URL follows the host election: whichever window or CLI serves the data
 * directory, and a takeover (new port) fires the change event so VS Code reconnects.
 */
import * as vscode from 'vscode';
import type { Connection, ServerController } from '../serverController.ts';
import { hostOperations } from '../../wire/host.ts';

/** The id in `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'satchel.mcp';
export const MCP_LABEL = 'Satchel';

export function mcpUrl(hostUrl: string): string {
  return `${hostUrl.replace(/\/+$/, '')}${hostOperations.mcp.path}`;
}

export class McpDefinitions implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly server: ServerController;
  private readonly version: string;
  private offered: string | undefined;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  private readonly registrations: vscode.Disposable;
  readonly onDidChangeMcpServerDefinitions = this._onDidChange.event;

  constructor(server: ServerController, version: string) {
    this.server = server;
    this.version = version;
    this.offered = server.connection?.url;
    this.registrations = vscode.Disposable.from(
      this._onDidChange,
      server.onDidChangeConnection((connection) => this.onConnection(connection)),
      // Older hosts (or ones with the MCP API turned off) lack the function; the rest of Satchel still works.
      ...(typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function' ? [vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, this)] : []),
    );
  }

  dispose(): void {
    this.registrations.dispose();
  }

  private onConnection(connection: Connection | undefined): void {
    // A connection lost for a moment (takeover in progress) is not a change worth a reconnect.
    if (!connection || connection.url === this.offered) return;
    this.offered = connection.url;
    this._onDidChange.fire();
  }

  /** Asks VS Code to read the definitions again (after a server restart). */
  refresh(): void {
    this._onDidChange.fire();
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    const url = this.server.connection?.url ?? this.offered;
    if (!url) return [];
    return [new vscode.McpHttpServerDefinition(MCP_LABEL, vscode.Uri.parse(mcpUrl(url)), {}, this.version)];
  }

  /** Called when VS Code starts the server: the host may have moved since the list was given. */
  resolveMcpServerDefinition(definition: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition | undefined {
    const url = this.server.connection?.url;
    if (!url) throw new Error('Satchel is not connected to its server yet; try again in a moment.');
    definition.uri = vscode.Uri.parse(mcpUrl(url));
    return definition;
  }
}
