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
import type { SnippetOperations } from './snippetOperations.ts';
import { newSnippetOperations } from './agentHandlers.ts';
import { ReviewSettingSync } from './reviewSetting.ts';
import type { Settings } from '../settings.ts';
import type { Log } from '../log.ts';

export class SatchelAgents implements vscode.Disposable {
  private readonly server: ServerController;
  private snippetOperations: SnippetOperations | undefined;
  readonly mcp: McpDefinitions;
  readonly tools: LanguageModelTools;
  readonly participant: ChatParticipant;
  /** Whether agents' writes wait for review, told to the host. */
  readonly review: ReviewSettingSync;

  constructor(server: ServerController, version: string, settings: () => Settings, log: Log) {
    this.server = server;
    this.mcp = new McpDefinitions(server, version);
    this.tools = new LanguageModelTools(() => this.operations);
    this.participant = new ChatParticipant(server, () => this.operations);
    this.review = new ReviewSettingSync(server, settings, log);
  }

  /** The tools' and the participant's operations, made when an agent first uses either. */
  get operations(): SnippetOperations {
    this.snippetOperations ??= newSnippetOperations(this.server);
    return this.snippetOperations;
  }

  dispose(): void {
    vscode.Disposable.from(this.review, this.participant, this.tools, this.mcp).dispose();
  }
}
