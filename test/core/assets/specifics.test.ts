import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClassificationSpecificEnum } from '@pieces.app/pieces-os-client';
import { CLASSIFICATION_SPECIFIC_VALUES } from '../../../src/core/assets/classificationValues.ts';
import { imageTypeOf, isKnownSpecific } from '../../../src/core/assets/specifics.ts';
import { genericOf, specificFromFileName } from '../../../src/core/classify/languages.ts';
import { suggestName, contentOf, textOfBytes } from '../../../src/core/assets/content.ts';
import { exportAsset, parseExportType } from '../../../src/core/assets/exporter.ts';
import { InvalidInputError } from '../../../src/core/errors.ts';

test('the known classification values are exactly the client enum', () => {
  assert.deepEqual([...CLASSIFICATION_SPECIFIC_VALUES].sort(), Object.values(ClassificationSpecificEnum).sort());
});

test('classification helpers', () => {
  assert.equal(genericOf('ts' as never), 'CODE');
  assert.equal(genericOf('png' as never), 'IMAGE');
  assert.equal(genericOf('md' as never), 'TEXT');
  assert.equal(specificFromFileName('src/main.PY'), 'py');
  assert.equal(specificFromFileName('Dockerfile'), 'dockerfile');
  assert.equal(specificFromFileName('notes.unknownext'), undefined);
  assert.equal(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])), 'jpg');
  assert.equal(imageTypeOf(Uint8Array.from([1, 2, 3])), undefined);
  assert.ok(isKnownSpecific('rs') && !isKnownSpecific('klingon'));
});

test('content decoding and name suggestion', () => {
  assert.equal(contentOf({ fragment: { string: { base64: Buffer.from('hi there').toString('base64') } } })?.text, 'hi there');
  assert.equal(contentOf({ fragment: { string: { data_url: 'data:text/plain,a%20b' } } })?.text, 'a b');
  assert.equal(contentOf({ file: { bytes: { raw: [104, 105] } } })?.text, 'hi');
  assert.equal(textOfBytes([0xff, 0xfe, 0]), '');
  assert.equal(suggestName('async function loadUser() {}'), 'loadUser');
  assert.equal(suggestName('// Sort the list by date\nxs.sort()'), 'Sort the list by date');
  assert.equal(suggestName('   \n'), 'Untitled snippet');
});

test('export as MD and HTML; other types are refused', () => {
  assert.equal(parseExportType('md'), 'MD');
  assert.throws(() => parseExportType('UNKNOWN'), InvalidInputError);
  assert.throws(() => parseExportType(undefined), InvalidInputError);
  const asset = {
    id: 'a', creator: 'u', created: { value: '2024-01-01T00:00:00.000Z' }, updated: { value: '2024-01-01T00:00:00.000Z' },
    name: 'A <b>', mechanism: 'MANUAL', preview: { base: { id: 'f' } }, original: { id: 'f' },
    formats: { iterable: [{ id: 'f', classification: { generic: 'CODE', specific: 'ts' }, fragment: { string: { raw: 'if (a < b) {}' } } }] },
  } as never;
  assert.match(exportAsset(asset, 'MD').raw.string?.raw ?? '', /```ts\nif \(a < b\) \{\}\n```/);
  const html = exportAsset(asset, 'HTML').raw.string?.raw ?? '';
  assert.match(html, /a &lt; b/);
  assert.match(html, /<title>A &lt;b&gt;<\/title>/);
});
