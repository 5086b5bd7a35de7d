import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickCodeToSave } from '../../../src/extension/agents/codeToSave.ts';

const history = ['how do I debounce?', 'Like this:\n```ts\nexport const debounce = () => {};\n```'];
const selection = { code: 'const selected = 1;', language: 'ts' };

test('a code block in the message comes first, with the words around it as the name', () => {
  const picked = pickCodeToSave('chunk helper\n```py\ndef chunks(): pass\n```', selection, history);
  assert.deepEqual(picked, { block: { code: 'def chunks(): pass', language: 'py' }, source: 'your message', name: 'chunk helper' });
});

test('else the editor selection', () => {
  const picked = pickCodeToSave('my const', selection, history);
  assert.equal(picked?.source, 'the editor selection');
  assert.equal(picked?.block.code, 'const selected = 1;');
  assert.equal(picked?.name, 'my const');
});

test('else the last code block of the chat; a blank selection does not count', () => {
  const picked = pickCodeToSave('', { code: '  \n', language: undefined }, history);
  assert.deepEqual(picked, { block: { code: 'export const debounce = () => {};', language: 'ts' }, source: 'this chat', name: undefined });
});

test('nothing to save gives undefined', () => {
  assert.equal(pickCodeToSave('', undefined, ['no code', '```\n\n```']), undefined);
});

test('a fence’s info string names the language; one Satchel does not know leaves it to the host', () => {
  assert.equal(pickCodeToSave('```python title="fib.py"\ndef fib(): pass\n```', undefined, [])?.block.language, 'py');
  assert.equal(pickCodeToSave('```{.rust}\nfn main() {}\n```', undefined, [])?.block.language, 'rs');
  // `/save` refused these as an unknown language; now the host classifies the code.
  assert.equal(pickCodeToSave('```diff\n- a\n+ b\n```', undefined, [])?.block.language, undefined);
  assert.equal(pickCodeToSave('```console\n$ ls\n```', undefined, [])?.block.language, 'sh');
});
