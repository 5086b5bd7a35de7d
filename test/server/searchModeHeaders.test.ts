/**
 * /search/neural_code says how it ran in headers (its body is the interface's SearchedAssets): any
 * reason, whatever its characters (an embedder's error message may carry accents or newlines),
 * must make a valid header that reads back as the same SearchMode.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateHeaderValue } from 'node:http';
import { SEARCH_MODE_HEADER, SEARCH_PLAN_HEADER, searchModeHeaders, type SearchMode } from '../../src/wire/search.ts';

test('a search mode makes valid headers whatever its reason says, and reads back the same', () => {
  const modes: SearchMode[] = [
    { mode: 'lexical', reason: 'no embedding model is loaded' },
    { mode: 'lexical', reason: "the query's vector failed: modèle «fermé»\r\nline two\u0000 — 日本 🙂" },
    { mode: 'hybrid', model: 'built-in/use-lite', vectors: 1234 },
  ];
  for (const mode of modes) {
    const headers = searchModeHeaders(mode);
    for (const [name, value] of Object.entries(headers)) {
      assert.doesNotThrow(() => validateHeaderValue(name, value), `${name}: ${value}`);
      assert.match(value, /^[\x20-\x7e]*$/);
    }
    assert.equal(headers[SEARCH_MODE_HEADER], mode.mode);
    assert.deepEqual(JSON.parse(headers[SEARCH_PLAN_HEADER]!), mode);
  }
});
