/**
 * Who writes @satchel's prose, and with what. A local model loaded in Satchel comes first: the
 * snippets never leave the machine. Else the chat model the user picked for this request (sending
 * it the found snippets is what the request asked for). Else nobody: the caller shows the list.
 */
import * as vscode from 'vscode';
import { askCopilot } from '../../client/qgpt.ts';
import { abortSignalOf } from './cancellation.ts';
import type { ServerController } from '../serverController.ts';
import { NotConnectedError, type SnippetOperations } from './snippetOperations.ts';
import { groundingPrompt, type SnippetDetail } from './snippetText.ts';

export type Writer =
  | { readonly kind: 'local' }
  | { readonly kind: 'chat'; readonly model: vscode.LanguageModelChat }
  | { readonly kind: 'none' };

/** The part of the chat stream an answer writes to. */
export type AnswerStream = Pick<vscode.ChatResponseStream, 'markdown' | 'progress'>;

export async function chooseWriter(operations: SnippetOperations, request: vscode.ChatRequest): Promise<Writer> {
  if (await operations.localModelLoaded().catch(() => false)) return { kind: 'local' };
  const picked = request.model as vscode.LanguageModelChat | undefined;
  if (!picked || typeof vscode.lm?.selectChatModels !== 'function') return { kind: 'none' };
  // A placeholder model (no provider, as in an editor without Copilot) is not in the list.
  const available = await Promise.resolve(vscode.lm.selectChatModels({ id: picked.id })).catch(() => []);
  return available.length > 0 ? { kind: 'chat', model: picked } : { kind: 'none' };
}

export function describeWriter(writer: Writer): string {
  switch (writer.kind) {
    case 'local':
      return 'your local model in Satchel (nothing left this machine)';
    case 'chat':
      return `${writer.model.name} (the model picked for this chat; it was sent the snippets cited)`;
    case 'none':
      return 'no model';
  }
}

/** Streams the grounded answer into the chat; the snippets are cited as [1], [2]… */
export async function writeAnswer(
  writer: Exclude<Writer, { kind: 'none' }>,
  server: ServerController,
  question: string,
  snippets: readonly SnippetDetail[],
  stream: AnswerStream,
  token: vscode.CancellationToken,
): Promise<void> {
  if (writer.kind === 'chat') {
    const response = await writer.model.sendRequest([vscode.LanguageModelChatMessage.User(groundingPrompt(question, snippets))], {}, token);
    for await (const fragment of response.text) stream.markdown(fragment);
    return;
  }
  const connection = server.connection;
  if (!connection) throw new NotConnectedError();
  stream.progress('Asking your local model…');
  // The host puts the attached snippets' text in the prompt; the question carries the citation rule.
  const answer = await askCopilot(connection.url, {
    query: `${question}\n\n(Answer from the attached snippets; cite them by name.)`,
    assets: snippets.map((s) => s.id),
    signal: abortSignalOf(token),
  });
  stream.markdown(answer.text);
}
