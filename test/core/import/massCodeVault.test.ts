/** massCode's Markdown vault (massCode 5): folders and tags as tags, each fragment a snippet, the trash and deleted snippets left out. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { withCore } from '../../support/helpers.ts';
import { importInputs } from '../../../src/core/import/importInputs.ts';
import { fragmentsOf } from '../../../src/core/import/massCodeVault.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';

const vault = fileURLToPath(new URL('../../fixtures/import/masscode-vault/', import.meta.url));

async function sources(path: string): Promise<ImportSource[]> {
  return Promise.all((await importInputs(path)).map(async (input): Promise<ImportSource> => ('read' in input ? { name: input.name, parsed: await input.read() } : { name: input.name, text: () => '' })));
}

test("a massCode vault imports: fragments as snippets, folders and state.json's tag names as tags, descriptions; trash left out", async () => {
  await withCore(async (core) => {
    // The vault's own folder and its code/ folder are both taken for the vault.
    assert.equal((await importInputs(vault)).length, (await importInputs(`${vault}code`)).length);
    const summary = await core.imports.import(await sources(vault));
    assert.equal(summary.failed, 0, JSON.stringify(summary.failures));
    assert.deepEqual(summary.formats, { masscode: 3 });
    const assets = new Map(core.assets.list().map((asset) => [asset.name, asset]));
    assert.deepEqual([...assets.keys()].sort(), ['Fetch JSON › Fragment 1', 'Fetch JSON › Usage', 'Quick note', 'Read file: utf8']);
    const fetch = assets.get('Fetch JSON › Fragment 1')!;
    assert.deepEqual(fetch.tags?.iterable.map((tag) => tag.text).sort(), ['JavaScript', 'http', 'utils']);
    assert.equal(fetch.formats.iterable[0]?.classification.specific, 'js');
    assert.match(fetch.formats.iterable[0]?.fragment?.string?.raw ?? '', /^export async function fetchJson\(url\) \{\n[\s\S]*\n\}$/);
    const read = assets.get('Read file: utf8')!;
    assert.deepEqual(read.tags?.iterable.map((tag) => tag.text).sort(), ['JavaScript', 'Node']);
    assert.equal(read.formats.iterable[0]?.classification.specific, 'ts');
    assert.match(read.formats.iterable[0]?.fragment?.string?.raw ?? '', /A fence inside the code: ```\n/);
    assert.deepEqual(assets.get('Quick note')!.tags?.iterable.map((tag) => tag.text), ['utils']);
    const description = core.context.links.partners({ kind: 'asset', id: fetch.id }, 'annotation');
    assert.equal(core.context.records.get<{ text: string }>('annotation', description[0]!)?.text, 'Fetches a URL and parses JSON.\nThrows on HTTP errors.');
  });
});

test('a bare Markdown body is one plain-text fragment; a heading without a fence is not one', () => {
  assert.deepEqual(fragmentsOf('# Notes\ntext\n'), [{ label: 'Fragment 1', language: 'plain_text', value: '# Notes\ntext\n' }]);
  assert.deepEqual(fragmentsOf('## Fragment: A\n```sql\nselect 1\n```\n## Fragment: B\nno fence\n'), [{ label: 'A', language: 'sql', value: 'select 1' }]);
});
