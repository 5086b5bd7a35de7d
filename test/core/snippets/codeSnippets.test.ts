/**
 * Export to a `.code-snippets` file round-trips through the import: the same snippets come back
 * (text, name, language, prefixes, snippet syntax, description), plain code with `$`, `}` and `\`
 * included, whether one snippet or every snippet of a tag is exported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import { newOrderedId, stamp } from '../../../src/core/time.ts';
import { parseJsonc } from '../../../src/core/import/jsonc.ts';
import { codeSnippetsFile, importedBody, type ExportableSnippet } from '../../../src/core/snippets/codeSnippets.ts';
import { parseVscodeSnippets } from '../../../src/core/import/vscodeSnippets.ts';
import { TEST_WRITE } from '../../support/authors.ts';

/** What the round trip compares: what the export writes of a snippet. */
type Snippet = ExportableSnippet;

const library: readonly Snippet[] = [
  { name: 'Fetch with retry', text: 'for (let ${1:attempt} = 0; $1 < ${2:3}; $1++) {\n\ttry { return await fetch(${3:url}); } catch {}\n}\n$0', language: 'ts', syntax: true, prefixes: ['fwr', 'fetchRetry'], description: 'Retries a fetch' },
  { name: 'Home directory', text: 'cd "$HOME" && echo ${PWD} \\\n  && printf "%s}\\n" done', language: 'sh', syntax: false, prefixes: ['home'] },
  { name: 'Standup notes', text: 'Yesterday:\nToday:\nBlockers: none $ so far', language: 'txt', syntax: false, prefixes: [], description: 'Daily' },
  { name: 'Windows line ends', text: 'SELECT 1;\r\nSELECT 2;\r\n', language: 'sql', syntax: false, prefixes: ['two'] },
  { name: 'Choice', text: 'console.${1|log,warn,error|}($2);', language: 'js', syntax: true, prefixes: ['con'] },
];

/** Writes the library through the same calls the extension makes (create, then the snippet facts), all tagged `export-me`. */
async function write(core: Satchel, snippets: readonly Snippet[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const snippet of snippets) {
    const id = (await core.assets.writes.create(codeSeed(snippet.text, snippet.name, { ext: snippet.language, tags: ['export-me', ...snippet.prefixes] }), TEST_WRITE)).id;
    core.snippets.setInfo(id, { syntax: snippet.syntax, prefixes: snippet.prefixes }, TEST_WRITE);
    if (snippet.description) describe(core, id, snippet.description);
    ids.set(snippet.name, id);
  }
  return ids;
}

/** A DESCRIPTION annotation linked to the asset, where Pieces (and the import) keep a description. */
function describe(core: Satchel, assetId: string, text: string): void {
  const id = newOrderedId();
  const now = stamp();
  core.context.transaction(() => {
    core.context.records.put('annotation', id, { id, type: 'DESCRIPTION', text, created: now, updated: now, mechanism: 'MANUAL' });
    core.context.links.link({ kind: 'annotation', id }, { kind: 'asset', id: assetId });
  });
}

/** Every snippet of the store as the round trip compares them. */
function read(core: Satchel): Snippet[] {
  return core.assets
    .list({ transferables: false })
    .map((asset) => {
      const info = core.snippets.info(asset.id);
      const language = core.snippets.completions({ query: '', language: 'plaintext', limit: 200 }).candidates.find((c) => c.id === asset.id)!.language;
      return {
        name: asset.name ?? '',
        text: core.assets.text(asset.id) ?? '',
        language,
        syntax: info.syntax,
        prefixes: info.prefixes,
        ...(info.description !== undefined ? { description: info.description } : {}),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const sorted = (snippets: readonly Snippet[]): Snippet[] => [...snippets].sort((a, b) => a.name.localeCompare(b.name));

test('a tag exported to .code-snippets and imported into another store gives the same snippets', async () => {
  const exported = await withCore(async (core) => {
    await write(core, library);
    await core.assets.writes.create(codeSeed('not tagged', 'Other', { ext: 'ts' }), TEST_WRITE);
    const file = await core.snippets.exportCodeSnippets({ tag: 'export-me' });
    assert.equal(file.count, library.length, 'only the tag\'s snippets');
    assert.equal(file.fileName, 'export-me.code-snippets');
    assert.deepEqual(read(core).filter((s) => s.name !== 'Other'), sorted(library), 'the store holds the library as written');
    return file;
  });
  const entries = parseJsonc(exported.content) as Record<string, { prefix?: unknown; body: unknown; scope?: string; description?: string }>;
  assert.equal(entries['Home directory']!.scope, 'shellscript');
  assert.deepEqual(entries['Home directory']!.body, ['cd "\\$HOME" && echo \\${PWD\\} \\\\', '  && printf "%s\\}\\\\n" done'], 'plain code escaped as VS Code needs it');
  assert.deepEqual(entries['Fetch with retry']!.prefix, ['fwr', 'fetchRetry']);
  assert.equal(entries['Choice']!.prefix, 'con', 'one prefix as a string');
  assert.equal(entries['Standup notes']!.scope, 'plaintext');
  assert.equal(entries['Standup notes']!.prefix, undefined, 'no prefix: none written');
  await withCore(async (core) => {
    // The default import path: a child process writes the batches.
    const summary = await core.imports.import([{ name: exported.fileName, text: () => exported.content }]);
    assert.equal(summary.imported, library.length);
    assert.equal(summary.failed, 0);
    assert.deepEqual(read(core), sorted(library));
  });
});

test('one snippet exported and imported back; repeated names are numbered', async () => {
  await withCore(async (core) => {
    const ids = await write(core, library);
    const one = await core.snippets.exportCodeSnippets({ asset: ids.get('Choice')! });
    assert.equal(one.count, 1);
    assert.equal(one.fileName, 'Choice.code-snippets');
    const parsed = parseVscodeSnippets(one.fileName, parseJsonc(one.content) as Record<string, unknown>);
    assert.deepEqual(parsed.snippets.map((s) => [s.name, s.text, s.language, s.syntax, s.prefixes]), [['Choice', library[4]!.text, 'js', true, ['con']]]);
    await assert.rejects(core.snippets.exportCodeSnippets({}), { code: 'invalid_input' });
    await assert.rejects(core.snippets.exportCodeSnippets({ asset: 'missing' }), { code: 'not_found' });
    assert.deepEqual((await core.snippets.exportCodeSnippets({ tag: 'no-such-tag' })).count, 0);
  }, { importWorker: false });
  const twice = codeSnippetsFile([
    { name: 'Same', text: 'a', language: 'ts', syntax: false, prefixes: [] },
    { name: 'Same', text: 'b', language: 'ts', syntax: false, prefixes: [] },
  ]);
  assert.deepEqual(Object.keys(JSON.parse(twice)), ['Same', 'Same (2)']);
});

test('an imported body without snippet features is plain code with its escapes undone; one with features stays snippet syntax', () => {
  assert.deepEqual(importedBody('echo \\$HOME \\} \\\\n'), { text: 'echo $HOME } \\n', syntax: false });
  assert.deepEqual(importedBody('echo $HOME'), { text: 'echo $HOME', syntax: true }, 'VS Code reads $HOME as a variable');
  assert.deepEqual(importedBody('log($1)'), { text: 'log($1)', syntax: true });
});
