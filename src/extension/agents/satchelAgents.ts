/**
 * Satchel for AI agents inside VS Code: the MCP server offered to agent mode, the same operations
 * as language-model tools, and the @satchel chat participant. Each piece registers only when the
 * editor has its API, so an editor without chat still runs the rest of Satchel.
 */
import type * as vscode from 'vscode';
import { Disposable } from '../lifecycle.ts';
import type { ServerController } from '../serverController.ts';
import { McpDefinitions } from './mcpDefinitions.ts';
import { LanguageModelTools } from './languageModelTools.ts';
import { ChatParticipant } from './chatParticipant.ts';
import { SnippetOperations } from './snippetOperations.ts';

export class SatchelAgents extends Disposable {
  readonly operations: SnippetOperations;
  readonly mcp: McpDefinitions;
  readonly tools: LanguageModelTools;
  readonly participant: ChatParticipant;

  constructor(server: ServerController, version: string, extensionUri: vscode.Uri | undefined) {
    super();
    this.operations = new SnippetOperations(server);
    this.mcp = this._register(new McpDefinitions(server, version));
    this.tools = this._register(new LanguageModelTools(this.operations));
    this.participant = this._register(new ChatParticipant(server, this.operations, extensionUri));
  }
}
