/** The completion provider's logic apart from VS Code: what is typed, when to ask, the items and their preview. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionItems, previewMarkdown, provideSnippets, typedQuery, type CompletionInput } from '../../src/extension/completion/completionSource.ts';
import type { CompletionCandidate } from '../../src/wire/snippets.ts';
import { renderSnippet } from '../../src/core/snippets/snippetSyntax.ts';

const on = { enabled: true, triggerPrefix: '' };
const input = (lineBefore: string, wordBefore: string, extra: Partial<CompletionInput> = {}): CompletionInput => ({ lineBefore, wordBefore, languageId: 'typescript', invoked: false, ...extra });

function candidate(fields: Partial<CompletionCandidate> = {}): CompletionCandidate {
  return { id: 'a1', name: 'Fetch with retry', language: 'ts', prefixes: [], syntax: false, text: 'fetch(url)', length: 10, updated: '2025-01-01T00:00:00.000Z', ...fields };
}

test('without a trigger prefix: the word before the cursor, from its second character or when invoked', () => {
  assert.deepEqual(typedQuery(input('  const x = fet', 'fet'), on), { query: 'fet', typed: 'fet' });
  assert.equal(typedQuery(input('  f', 'f'), on), 'later', 'one character: ask again as the user types');
  assert.deepEqual(typedQuery(input('  ', '', { invoked: true }), on), { query: '', typed: '' }, 'Ctrl+Space on nothing: the newest');
  assert.equal(typedQuery(input('fet', 'fet'), { enabled: false, triggerPrefix: '' }), undefined, 'off');
  assert.equal(typedQuery(input('fix: fet', 'fet', { languageId: 'scminput' }), on), undefined, 'not in the commit message box');
});

test('with a trigger prefix: only what follows it, as one word; the prefix is replaced too', () => {
  const trigger = { enabled: true, triggerPrefix: 'sat:' };
  assert.deepEqual(typedQuery(input('  x = sat:ret', 'ret'), trigger), { query: 'ret', typed: 'sat:ret' });
  assert.deepEqual(typedQuery(input('sat:', ''), trigger), { query: '', typed: 'sat:' }, 'just the prefix: the newest');
  assert.equal(typedQuery(input('  x = fet', 'fet'), trigger), 'later', 'no prefix typed: nothing yet');
  assert.equal(typedQuery(input('sat:fetch with', 'with'), trigger), 'later', 'white space ends the query');
  assert.equal(typedQuery(input('chat:ret', 'ret'), trigger), 'later', 'the prefix must start a word');
  assert.deepEqual(typedQuery(input('(sat:r', 'r'), trigger), { query: 'r', typed: 'sat:r' }, 'one character is enough after a prefix');
});

test('items: a matching prefix is the label; filter text starts with the matched word; plain code is escaped, snippet syntax kept', () => {
  const typed = { query: 'fw', typed: 'fw' };
  const [prefixed] = completionItems(typed, { candidates: [candidate({ prefixes: ['fwr'], syntax: true, text: 'fetch(${1:url})' })] }, '');
  assert.equal(prefixed!.label, 'fwr');
  assert.equal(prefixed!.description, 'Fetch with retry');
  assert.equal(prefixed!.filterText, 'fwr Fetch with retry');
  assert.equal(prefixed!.body, 'fetch(${1:url})');
  assert.equal(prefixed!.detail, 'Satchel · TypeScript template');

  const [byTag, byName, shell, large] = completionItems({ query: 're', typed: 'sat:re' }, {
    candidates: [
      candidate({ match: 'retry', name: 'Backoff' }),
      candidate({}),
      candidate({ name: 'Read home', language: 'sh', text: 'echo "$HOME" ${x} \\n }', match: 'read' }),
      candidate({ name: 'Really large', text: undefined, length: 99_999 }),
    ],
  }, 'sat:');
  assert.equal(byTag!.label, 'Backoff');
  assert.equal(byTag!.filterText, 'sat:retry Backoff', 'the trigger prefix leads, then the word the host matched (a tag)');
  assert.equal(byName!.filterText, 'sat:retry Fetch with retry', 'without one from the host, a word of the name');
  assert.equal(shell!.body, 'echo "\\$HOME" \\${x\\} \\\\n \\}');
  assert.equal(renderSnippet(shell!.body!), 'echo "$HOME" ${x} \\n }', 'what VS Code inserts is the code as saved');
  assert.equal(large!.body, undefined, 'no text: inserted by id');
  assert.deepEqual([byTag, byName, shell, large].map((item) => item!.sortText), ['0000', '0001', '0002', '0003'], 'the host\'s order');
});

test('the preview: name, tags, description, and the code as inserted in a fence of its language', () => {
  const markdown = previewMarkdown(candidate({ syntax: true, text: 'for (const ${1:item} of ${2:list}) {}\n```' }), { description: 'Loop *fast*', tags: ['loops'] });
  assert.match(markdown, /^\*\*Fetch with retry\*\* · `loops`/);
  assert.match(markdown, /Loop \\\*fast\\\*/, 'the description is escaped');
  assert.match(markdown, /````typescript\nfor \(const item of list\) \{\}\n```\n````/, 'placeholders show their defaults; a fence longer than the code\'s backticks');
  assert.match(markdown, /Tab moves between its placeholders/);
  assert.match(previewMarkdown(candidate({ text: undefined, length: 123_456 })), /123,456 characters/);
  const long = previewMarkdown(candidate({ text: Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') }));
  assert.match(long, /60 more lines/);
});

test('provideSnippets asks the host only when there is something to ask, with the document language, and passes the signal', async () => {
  const asked: Array<[string, string]> = [];
  const source = async (query: string, language: string, signal: AbortSignal) => {
    asked.push([query, language]);
    assert.equal(signal.aborted, false);
    return { candidates: [candidate()] };
  };
  const signal = new AbortController().signal;
  assert.deepEqual(await provideSnippets(input('f', 'f'), on, source, signal), { items: [], incomplete: true, typed: undefined });
  assert.equal(await provideSnippets(input('fet', 'fet'), { enabled: false, triggerPrefix: '' }, source, signal), undefined);
  const answer = await provideSnippets(input('fet', 'fet', { languageId: 'python' }), on, source, signal);
  assert.deepEqual(asked, [['fet', 'python']]);
  assert.equal(answer?.items.length, 1);
  assert.equal(answer?.incomplete, true, 'VS Code asks again at the next keystroke');
  assert.equal(answer?.typed, 'fet');
});
