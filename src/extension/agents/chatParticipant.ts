/**
 * `@satchel` in the chat view, registered at activation; what it answers (chatAnswers.ts) is loaded
 * from the agents' own bundle on the first request (agentHandlers.ts, docs/performance.md).
 */
import * as vscode from 'vscode';
import type { ServerController } from '../serverController.ts';
import type { SnippetOperations } from './snippetOperations.ts';
import { answerChat } from './agentHandlers.ts';
import type { ChatAnswer } from './chatAnswers.ts';

export const PARTICIPANT_ID = 'satchel.chat';

const EXTENSION_ID = 'satchel-dev.satchel';

export type { ChatAnswer } from './chatAnswers.ts';

export class ChatParticipant implements vscode.Disposable {
  private readonly server: ServerController;
  private readonly operations: () => SnippetOperations;
  private readonly _onDidAnswer = new vscode.EventEmitter<ChatAnswer>();
  private participant: vscode.ChatParticipant | undefined;
  readonly onDidAnswer = this._onDidAnswer.event;

  constructor(server: ServerController, operations: () => SnippetOperations) {
    this.server = server;
    this.operations = operations;
    if (typeof vscode.chat?.createChatParticipant !== 'function') return;
    this.participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => this.handle(request, context, stream, token));
    const home = vscode.extensions.getExtension(EXTENSION_ID)?.extensionUri;
    if (home) this.participant.iconPath = vscode.Uri.joinPath(home, 'media', 'icon.png');
  }

  dispose(): void {
    this.participant?.dispose();
    this.participant = undefined;
    this._onDidAnswer.dispose();
  }

  handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    return answerChat({ server: this.server, operations: this.operations(), answered: (answer) => this._onDidAnswer.fire(answer) }, request, context, stream, token);
  }
}
