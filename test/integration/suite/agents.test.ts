/**
 * Satchel for AI agents in a real VS Code: the MCP server definition VS Code reads (and its own
 * MCP client starts and calls, as agent mode does), the
 * language-model tools run through `vscode.lm.invokeTool` against the host (checked through the
 * client), and @satchel in the real chat view. VS Code sends no chat request to any participant
 * while no language model exists, and code-server has no Copilot, so the development extension
 * is a stub model (host/stubModel.ts): `/search` is answered without it (asserted: it is sent
 * nothing), a question is answered in its words from the found snippets. The no-model answer to a
 * question is checked by calling the participant's handler. Screenshots of both chat answers.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { EXTENSION_ID, screenshot, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { ChatAnswer } from '../../../src/extension/agents/chatParticipant.ts';
import type { McpDefinitions } from '../../../src/extension/agents/mcpDefinitions.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { assetText } from '../../../src/client/assets.ts';
import { STUB_ANSWER, STUB_EXTENSION_ID, STUB_VENDOR } from '../host/stubModel.ts';

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function invoke<T>(name: string, input: object): Promise<T> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return JSON.parse(resultText(result)) as T;
}

/** Records the URL each time VS Code (or anyone) reads the MCP definitions. */
function recordReads(provider: McpDefinitions): { calls: string[]; restore: () => void } {
  const calls: string[] = [];
  const original = provider.provideMcpServerDefinitions.bind(provider);
  provider.provideMcpServerDefinitions = () => {
    const result = original();
    calls.push(result[0]?.uri.toString() ?? '');
    return result;
  };
  return { calls, restore: () => delete (provider as { provideMcpServerDefinitions?: unknown }).provideMcpServerDefinitions };
}

interface Summary {
  id: string;
  name: string;
  language?: string;
  tags: string[];
  preview: string;
}

const BACKOFF = [
  'export async function fetchWithBackoff(url: string, tries = 5): Promise<Response> {',
  '  for (let attempt = 0; ; attempt++) {',
  '    const response = await fetch(url);',
  '    if (response.ok || attempt >= tries - 1) return response;',
  '    await new Promise((r) => setTimeout(r, 2 ** attempt * 250));',
  '  }',
  '}',
].join('\n');

let api: SatchelExtension;
let client: SatchelClient;

describe('Satchel for agents in VS Code', function () {
  before(async function () {
    api = (await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate())!;
    await until('the server role', () => api.server.connection, 30_000);
    client = new SatchelClient(api.server.connection!.url);
  });

  after(() => client?.dispose());

  it('offers the MCP server of the current host to VS Code, and VS Code reads it', async function () {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { mcpServerDefinitionProviders: { id: string }[] } };
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id), ['satchel.mcp']);
    const provider = api.agents.mcp;
    const definitions = provider.provideMcpServerDefinitions();
    assert.equal(definitions.length, 1);
    const [definition] = definitions;
    assert.ok(definition instanceof vscode.McpHttpServerDefinition, 'a streamable HTTP definition');
    assert.equal(definition.label, 'Satchel');
    assert.equal(definition.uri.toString(), `${api.server.connection!.url}/mcp`);
    const health = await fetch(new URL('/.well-known/health', definition.uri.toString()));
    assert.equal(await health.text(), 'ok', 'the definition points at the live host');

    // VS Code reads the provider itself: record its calls, then say the list changed.
    const { calls, restore } = recordReads(provider);
    try {
      provider.refresh();
      await until('VS Code to read the MCP definitions', () => calls.length > 0, 15_000);
      assert.equal(calls[0], `${api.server.connection!.url}/mcp`);
    } finally {
      restore();
    }
  });

  it('registers the language-model tools the manifest declares', async function () {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { languageModelTools: { name: string }[] } };
    const declared = manifest.contributes.languageModelTools.map((t) => t.name).sort();
    const registered = await until('the tools in vscode.lm.tools', () => {
      const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('satchel_'));
      return names.length === declared.length ? names.sort() : undefined;
    });
    assert.deepEqual(registered, declared);
    const search = vscode.lm.tools.find((t) => t.name === 'satchel_search_snippets')!;
    assert.ok(search.tags.includes('snippets'));
    assert.deepEqual((search.inputSchema as { required?: string[] }).required, ['query']);
  });

  it('saves and finds a snippet through vscode.lm.invokeTool, stored in the host', async function () {
    const saved = await invoke<{ saved: boolean; id: string; name: string; language?: string; tags: string[] }>('satchel_save_snippet', {
      content: BACKOFF,
      name: 'Fetch with exponential backoff',
      tags: ['http', 'retry'],
      language: 'typescript',
    });
    assert.equal(saved.saved, true);
    assert.equal(saved.language, 'ts');
    const stored = await client.assets.get(saved.id);
    assert.equal(assetText(stored), BACKOFF, 'the host stored the exact code');
    assert.equal(stored.name, 'Fetch with exponential backoff');
    assert.deepEqual((stored.tags?.iterable ?? []).map((t) => t.text).sort(), ['http', 'retry']);
    await until('the saved snippet in the Assets view (stream)', () => api.assets.asset(saved.id));

    const found = await invoke<Summary[]>('satchel_search_snippets', { query: 'backoff fetch', limit: 5 });
    assert.equal(found[0]?.id, saved.id);
    assert.match(found[0]!.preview, /fetchWithBackoff/);
    const byTag = await invoke<Summary[]>('satchel_search_snippets', { query: '', tags: ['retry'] });
    assert.ok(byTag.some((s) => s.id === saved.id), 'found by tag alone');

    const full = await invoke<{ content: string; tags: string[] }>('satchel_get_snippet', { id: saved.id });
    assert.equal(full.content, BACKOFF);
    const recent = await invoke<Summary[]>('satchel_list_recent_snippets', { limit: 3 });
    assert.equal(recent[0]?.id, saved.id, 'newest first');
    // Asked twice: a question is not a copy, so the repeat rule does not quiet the second answer.
    for (let i = 0; i < 2; i++) {
      const check = await invoke<{ saved: boolean; match?: Summary }>('satchel_check_snippet_saved', { content: BACKOFF, language: 'ts' });
      assert.equal(check.saved, true, `asked ${i + 1}`);
      assert.equal(check.match?.id, saved.id, `asked ${i + 1}`);
    }
  });

  it('answers bad tool input with a clear error, and stores nothing', async function () {
    const before = (await client.assets.list({ transferables: false })).iterable.length;
    await assert.rejects(Promise.resolve(vscode.lm.invokeTool('satchel_save_snippet', { input: { content: '   ' }, toolInvocationToken: undefined })), /content/);
    await assert.rejects(Promise.resolve(vscode.lm.invokeTool('satchel_search_snippets', { input: { query: '' }, toolInvocationToken: undefined })), /query/);
    assert.equal((await client.assets.list({ transferables: false })).iterable.length, before);
  });

  describe('@satchel in the chat view', function () {
    let stub: { requests: string[] };
    const answers: ChatAnswer[] = [];
    let listener: vscode.Disposable;

    before(async function () {
      stub = (await vscode.extensions.getExtension<{ requests: string[] }>(STUB_EXTENSION_ID)!.activate())!;
      listener = api.agents.participant.onDidAnswer((answer) => answers.push(answer));
      // Earlier tests leave editors open (an untitled summary); the chat would attach them as context.
      for (let i = 0; i < 10 && vscode.window.visibleTextEditors.length > 0; i++) {
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
      // The host starts with AI features off; the chat view needs them on.
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
      await until('the stub chat model', async () => (await vscode.lm.selectChatModels({ vendor: STUB_VENDOR })).length > 0);
    });

    after(async function () {
      listener?.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
      await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    });

    async function ask(query: string): Promise<ChatAnswer> {
      const count = answers.length;
      await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false, mode: 'ask', modelSelector: { vendor: STUB_VENDOR } });
      return until(`@satchel to answer "${query}" in the chat view`, () => answers[count], 45_000);
    }

    it('answers /search with the found snippets, sending nothing to the chat model', async function () {
      this.timeout(90_000);
      const answer = await ask('@satchel /search backoff');
      assert.equal(answer.command, 'search');
      assert.equal(answer.writer, 'no model');
      assert.match(answer.markdown, /Fetch with exponential backoff/);
      assert.match(answer.markdown, /fetchWithBackoff/);
      assert.equal(answer.snippets.length, 1);
      assert.deepEqual(stub.requests, [], '/search never reaches a model');
      // The chat gets the whole window for the screenshot.
      await vscode.commands.executeCommand('workbench.action.maximizeAuxiliaryBar');
      await new Promise((r) => setTimeout(r, 1500));
      await screenshot('chat-search');
    });

    it('answers a question in prose from the picked chat model, grounded in the found snippets', async function () {
      this.timeout(90_000);
      const answer = await ask('@satchel how do I retry a fetch with backoff?');
      assert.equal(answer.command, undefined);
      assert.match(answer.writer, /Stub model/);
      assert.ok(answer.markdown.includes(STUB_ANSWER), 'the model\'s words are the answer');
      assert.match(answer.markdown, /Sources: \[1\] Fetch with exponential backoff/);
      assert.equal(stub.requests.length, 1);
      assert.match(stub.requests[0]!, /fetchWithBackoff/, 'the model was sent the found snippet');
      await new Promise((r) => setTimeout(r, 1500));
      await screenshot('chat-answer');
    });

    it('/explain shows the snippet and the picked model explains it', async function () {
      this.timeout(90_000);
      const sent = stub.requests.length;
      const answer = await ask('@satchel /explain backoff');
      assert.equal(answer.command, 'explain');
      assert.match(answer.markdown, /fetchWithBackoff/, 'the snippet is shown');
      assert.ok(answer.markdown.includes(STUB_ANSWER));
      assert.equal(stub.requests.length, sent + 1);
      assert.match(stub.requests.at(-1)!, /Explain what the snippet "Fetch with exponential backoff" does/);
    });

    it('/save stores the editor selection under the words given, and a code block in the message first', async function () {
      this.timeout(90_000);
      const file = vscode.workspace.workspaceFolders![0]!.uri.fsPath + '/retry.ts';
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
      editor.selection = new vscode.Selection(0, 0, 2, 0);
      const fromSelection = await ask('@satchel /save retry loop head');
      assert.equal(fromSelection.command, 'save');
      assert.match(fromSelection.markdown, /from the editor selection/);
      const selected = await client.assets.get(fromSelection.snippets[0]!);
      assert.equal(selected.name, 'retry loop head');
      assert.equal(assetText(selected), editor.document.getText(editor.selection));

      const fromMessage = await ask('@satchel /save chunk helper\n```python\ndef chunks(xs, n):\n    return [xs[i:i + n] for i in range(0, len(xs), n)]\n```');
      assert.match(fromMessage.markdown, /from your message/);
      const chunk = await client.assets.get(fromMessage.snippets[0]!);
      assert.match(assetText(chunk), /^def chunks\(xs, n\):/);
      assert.equal(chunk.original?.reference?.classification?.specific ?? chunk.formats?.iterable?.[0]?.classification?.specific, 'py');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('agent mode\'s MCP client starts the offered server and runs its tools against the host', async function () {
      this.timeout(60_000);
      // What agent mode does on first use, without the "Start it now?" click.
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
      const mcpSearch = await until('the MCP server\'s tools in vscode.lm.tools', () =>
        vscode.lm.tools.find((t) => /search_snippets$/.test(t.name) && !t.name.startsWith('satchel_')),
      30_000);
      assert.equal(mcpSearch.name, 'mcp_satchel_search_snippets');
      const mcpTools = vscode.lm.tools.filter((t) => t.name.startsWith('mcp_satchel_')).map((t) => t.name);
      for (const tool of ['get_snippet', 'save_snippet', 'list_recent_snippets', 'check_snippet_saved']) assert.ok(mcpTools.includes(`mcp_satchel_${tool}`), tool);
      const result = await vscode.lm.invokeTool(mcpSearch.name, { input: { query: 'backoff' }, toolInvocationToken: undefined });
      assert.match(resultText(result), /Fetch with exponential backoff/);
    });

    it('with a local model loaded, the local model answers and the picked chat model is sent nothing', async function () {
      this.timeout(180_000);
      const model = await until('a text model in the catalog', () =>
        api.models.models.find((m) => m.downloaded && String(m.usage) === 'CODE_CONVERSATION') ??
        api.models.models.find((m) => /smol/i.test(m.name) && String(m.usage) === 'CODE_CONVERSATION'),
      );
      if (!model.downloaded) assert.equal(await vscode.commands.executeCommand<string>('satchel.model.download', model.id), 'COMPLETED');
      assert.equal((await vscode.commands.executeCommand<{ loaded?: boolean }>('satchel.model.load', model.id))?.loaded, true);
      const sent = stub.requests.length;
      try {
        const answer = await ask('@satchel what does fetchWithBackoff do?');
        assert.match(answer.writer, /local model/);
        assert.equal(stub.requests.length, sent, 'nothing went to the chat model');
        assert.ok(answer.markdown.trim().length > 0, 'the local model wrote an answer');
        assert.ok(!answer.markdown.includes(STUB_ANSWER));
        const conversations = (await client.conversations.list()).iterable;
        assert.ok(conversations.some((c) => c.name?.includes('fetchWithBackoff')), 'the question is kept as a Satchel conversation');
      } finally {
        await vscode.commands.executeCommand('satchel.model.unload', model.id);
      }
    });
  });

  it('follows the host to a new port: the MCP definition changes and VS Code reads it again', async function () {
    this.timeout(60_000);
    const provider = api.agents.mcp;
    const before = api.server.connection!.url;
    let changes = 0;
    const listener = provider.onDidChangeMcpServerDefinitions(() => changes++);
    const { calls, restore } = recordReads(provider);
    const settings = vscode.workspace.getConfiguration('satchel');
    const port = api.server.connection!.port + 7;
    try {
      await settings.update('port', port, vscode.ConfigurationTarget.Global);
      const moved = await until('the host on the new port', () => api.server.connection?.port === port && api.server.connection, 30_000);
      assert.notEqual(moved.url, before);
      assert.ok(changes >= 1, 'the change event fired');
      assert.equal(provider.provideMcpServerDefinitions()[0]?.uri.toString(), `${moved.url}/mcp`);
      await until('VS Code to read the moved definition', () => calls.includes(`${moved.url}/mcp`), 15_000);
    } finally {
      listener.dispose();
      restore();
      await settings.update('port', undefined, vscode.ConfigurationTarget.Global);
      await until('the host back on its first port', () => api.server.connection?.url === before && api.server.connection, 30_000);
      client.dispose();
      client = new SatchelClient(api.server.connection!.url);
    }
  });

  it('with no model at all, @satchel answers a question with the list of found snippets', async function () {
    let shown = '';
    const stream = { markdown: (v: string) => (shown += v), progress: () => {}, reference: () => {}, anchor: () => {} } as unknown as vscode.ChatResponseStream;
    const request = { prompt: 'fetch backoff', command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, model: undefined } as unknown as vscode.ChatRequest;
    const result = await api.agents.participant.handle(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
    assert.equal(result.errorDetails, undefined);
    assert.match(shown, /saved snippet.* match/);
    assert.match(shown, /Fetch with exponential backoff/);
    assert.match(shown, /load a local model/, 'says how to get a written answer');
  });
});
