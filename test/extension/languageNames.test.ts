import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromVscodeLanguage } from '../../src/extension/languageNames.ts';

test('an editor’s language id is the language saved, but plain text leaves it to the host', () => {
  assert.equal(fromVscodeLanguage('python'), 'py');
  assert.equal(fromVscodeLanguage('typescriptreact'), 'tsx');
  assert.equal(fromVscodeLanguage('jsonc'), 'json');
  // An untitled editor holding pasted Python is plaintext: saved as text, it hid from Python completions.
  assert.equal(fromVscodeLanguage('plaintext'), undefined);
  assert.equal(fromVscodeLanguage('no-such-language'), undefined);
});
