/**
 * Satchel for AI agents inside VS Code: the MCP server offered to agent mode, the same operations
 * as language-model tools, and the @satchel chat participant. Each piece registers only when the
 * editor has its API, so an editor without chat still runs the rest of Satchel. Each piece owns
 * its registrations as plain vscode.Disposables (no dependency on the extension's base classes).
 */
import * as vscode from 'vscode';
import type { ServerController } from '../serverController.ts';
import { McpDefinitions } from './mcpDefinitions.ts';
import { LanguageModelTools } from './languageModelTools.ts';
import { ChatParticipant } from './chatParticipant.ts';
import { SnippetOperations } from './snippetOperations.ts';
import { ReviewSettingSync } from './reviewSetting.ts';
import type { Settings } from '../settings.ts';
import type { Log } from '../log.ts';

export class SatchelAgents implements vscode.Disposable {
  readonly operations: SnippetOperations;
  readonly mcp: McpDefinitions;
  readonly tools: LanguageModelTools;
  readonly participant: ChatParticipant;
  /** Whether agents' writes wait for review, told to the host. */
  readonly review: ReviewSettingSync;

  constructor(server: ServerController, version: string, settings: () => Settings, log: Log) {
    this.operations = new SnippetOperations(server);
    this.mcp = new McpDefinitions(server, version);
    this.tools = new LanguageModelTools(this.operations);
    this.participant = new ChatParticipant(server, this.operations);
    this.review = new ReviewSettingSync(server, settings, log);
  }

  dispose(): void {
    vscode.Disposable.from(this.review, this.participant, this.tools, this.mcp).dispose();
  }
}
