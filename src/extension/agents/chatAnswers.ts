/**
 * What `@satchel` answers (chatParticipant.ts registers it): `/search` lists matching snippets (nothing
 * is sent to any model); `/save` stores the code block in the prompt, else the editor selection, else
 * the last code block of this chat; `/explain` finds a snippet and explains it; a plain question is
 * answered from the found snippets. Prose comes from a local model when one is loaded, else from the
 * chat's picked model; with neither the answer is the list of found snippets. Found snippets are
 * references that open the snippets' editable documents. Loaded on the first request
 * (agentHandlers.ts).
 */
import * as vscode from 'vscode';
import { snippetUri } from '../editing/snippetFileSystem.ts';
import { fromVscodeLanguage } from '../languageNames.ts';
import type { ServerController } from '../serverController.ts';
import { ClientError } from '../../client/errors.ts';
import { chooseWriter, describeWriter, writeAnswer, type AnswerStream } from './groundedAnswer.ts';
import type { SnippetOperations } from './snippetOperations.ts';
import { inline, resultsMarkdown, snippetMarkdown, type CodeBlock, type SnippetSummary } from './snippetText.ts';
import { pickCodeToSave } from './codeToSave.ts';
import { abortSignalOf } from './cancellation.ts';
import { authorOf } from '../../core/history/authors.ts';

/** `/save` saves what the user picked (a selection, a code block they gave): the user's own write, made through the participant. */
const SAVE_COMMAND_AUTHOR = authorOf('vscode', '@satchel /save');

/** A snippet id (a UUID): only a query of that shape is tried as an id, so a plain word costs no lookup. */
const SNIPPET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ANSWER_LIMIT = 5;

/** What one request answered (the integration tests and the log read it). */
export interface ChatAnswer {
  readonly command: string | undefined;
  readonly prompt: string;
  readonly markdown: string;
  readonly snippets: readonly string[];
  readonly writer: string;
}

/** What the participant needs of the extension: the host, the snippet operations, and who hears each answer. */
export interface ChatDependencies {
  readonly server: ServerController;
  readonly operations: SnippetOperations;
  readonly answered: (answer: ChatAnswer) => void;
}

/** Answers one chat request. */
export function answerChat(dependencies: ChatDependencies, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  return new ChatAnswers(dependencies).handle(request, context, stream, token);
}

class ChatAnswers {
  private readonly server: ServerController;
  private readonly operations: SnippetOperations;
  private readonly answered: (answer: ChatAnswer) => void;

  constructor({ server, operations, answered }: ChatDependencies) {
    this.server = server;
    this.operations = operations;
    this.answered = answered;
  }

  async handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const recorder = new Recorder(stream);
    let snippets: string[] = [];
    let writer = 'no model';
    try {
      if (request.command === 'save') snippets = await this.save(request, context, recorder);
      else if (request.command === 'explain') ({ snippets, writer } = await this.explain(request, recorder, token));
      else if (request.command === 'search') snippets = await this.search(request.prompt, recorder, token);
      else ({ snippets, writer } = await this.answer(request, recorder, token));
    } catch (error) {
      if (token.isCancellationRequested) return {};
      recorder.markdown(`\n\n**Satchel could not answer:** ${inline(messageOf(error))}`);
      return { errorDetails: { message: messageOf(error) }, metadata: { command: request.command } };
    } finally {
      this.answered({ command: request.command, prompt: request.prompt, markdown: recorder.text, snippets, writer });
    }
    return { metadata: { command: request.command, snippets } };
  }

  private async search(query: string, stream: Recorder, token: vscode.CancellationToken): Promise<string[]> {
    if (!query.trim()) {
      stream.markdown('Say what to look for, e.g. `/search retry with backoff`.');
      return [];
    }
    stream.progress('Searching your snippets…');
    const found = await this.operations.search({ query }, abortSignalOf(token));
    stream.markdown(resultsMarkdown(query, found));
    if (found.length) {
      stream.markdown('\n\nOpen:');
      for (const snippet of found) {
        stream.markdown(' ');
        stream.anchor(snippetUri(snippet.id, snippet.name, snippet.language), snippet.name);
      }
    }
    this.cite(found, stream);
    return found.map((s) => s.id);
  }

  private async save(request: vscode.ChatRequest, context: vscode.ChatContext, stream: Recorder): Promise<string[]> {
    const picked = pickCodeToSave(request.prompt, selectionOf(vscode.window.activeTextEditor), historyTexts(context));
    if (!picked) {
      stream.markdown('There is nothing to save: select code in an editor, or put a code block in your message, then `/save` again.');
      return [];
    }
    stream.progress('Saving…');
    const saved = await this.operations.save({
      content: picked.block.code,
      ...(picked.block.language ? { language: picked.block.language } : {}),
      ...(picked.name ? { name: picked.name } : {}),
    }, SAVE_COMMAND_AUTHOR);
    stream.markdown(`Saved **${inline(saved.name)}** (${inline(saved.language ?? 'unclassified')}, from ${picked.source}) to your Satchel snippets.`);
    this.cite([saved], stream);
    return [saved.id];
  }

  private async explain(request: vscode.ChatRequest, stream: Recorder, token: vscode.CancellationToken): Promise<{ snippets: string[]; writer: string }> {
    const query = request.prompt.trim();
    if (!query) {
      stream.markdown('Say which snippet, e.g. `/explain retry with backoff` (a name, words from its code, or its id).');
      return { snippets: [], writer: 'no model' };
    }
    // An id (from /search or a tool answer) names the snippet exactly; words are searched.
    const byId = SNIPPET_ID.test(query) ? await this.operations.get(query).catch(() => undefined) : undefined;
    const snippet = byId ?? (await this.operations.searchDetails({ query, limit: 1 }, abortSignalOf(token)))[0];
    if (!snippet) {
      stream.markdown(`No saved snippet matches **${inline(query)}**.`);
      return { snippets: [], writer: 'no model' };
    }
    stream.markdown(`${snippetMarkdown(snippet)}\n\n`);
    this.cite([snippet], stream);
    const writer = await chooseWriter(this.operations, request);
    if (writer.kind === 'none') {
      stream.markdown('_No language model is available to explain it: load a local model in Satchel\'s Models view, or pick a chat model._');
    } else {
      await writeAnswer(writer, this.server, `Explain what the snippet "${snippet.name}" does, how to use it, and any pitfalls.`, [snippet], stream, token);
    }
    return { snippets: [snippet.id], writer: describeWriter(writer) };
  }

  private async answer(request: vscode.ChatRequest, stream: Recorder, token: vscode.CancellationToken): Promise<{ snippets: string[]; writer: string }> {
    const question = request.prompt.trim();
    if (!question) {
      stream.markdown('Ask about your saved snippets, or use `/search`, `/save` or `/explain`.');
      return { snippets: [], writer: 'no model' };
    }
    stream.progress('Searching your snippets…');
    const found = await this.operations.searchDetails({ query: question, limit: ANSWER_LIMIT }, abortSignalOf(token));
    const writer = found.length ? await chooseWriter(this.operations, request) : ({ kind: 'none' } as const);
    if (writer.kind === 'none') {
      stream.markdown(resultsMarkdown(question, found));
      if (found.length) stream.markdown('\n\n_For a written answer, load a local model in Satchel\'s Models view (nothing leaves this machine) or pick a chat model._');
    } else {
      await writeAnswer(writer, this.server, question, found, stream, token);
      stream.markdown('\n\nSources:');
      for (const [i, snippet] of found.entries()) {
        stream.markdown(` [${i + 1}] `);
        stream.anchor(snippetUri(snippet.id, snippet.name, snippet.language), snippet.name);
      }
    }
    this.cite(found, stream);
    return { snippets: found.map((s) => s.id), writer: describeWriter(writer) };
  }

  private cite(snippets: readonly SnippetSummary[], stream: Recorder): void {
    for (const snippet of snippets) stream.reference(snippetUri(snippet.id, snippet.name, snippet.language));
  }
}

function selectionOf(editor: vscode.TextEditor | undefined): CodeBlock | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  return { code: editor.document.getText(editor.selection), language: fromVscodeLanguage(editor.document.languageId) };
}

/** The chat so far, oldest first: each request's prompt and each response's Markdown. */
function historyTexts(context: vscode.ChatContext): string[] {
  return context.history.map((turn) =>
    turn instanceof vscode.ChatRequestTurn
      ? turn.prompt
      : turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join(''),
  );
}

function messageOf(error: unknown): string {
  if (error instanceof ClientError && error.unreachable) return 'the Satchel server does not answer; it may be restarting.';
  return error instanceof Error ? error.message : String(error);
}

/** Passes parts to the chat and keeps the Markdown, so what was answered can be observed. */
class Recorder implements AnswerStream {
  private readonly stream: vscode.ChatResponseStream;
  text = '';

  constructor(stream: vscode.ChatResponseStream) {
    this.stream = stream;
  }

  markdown(value: string): void {
    this.text += value;
    this.stream.markdown(value);
  }

  progress(value: string): void {
    this.stream.progress(value);
  }

  reference(uri: vscode.Uri): void {
    this.stream.reference(uri);
  }

  /** A link that opens the snippet; recorded as its title. */
  anchor(uri: vscode.Uri, title: string): void {
    this.text += title;
    this.stream.anchor(uri, title);
  }
}
