import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correctedBySyntax } from '../../../src/core/classify/corrections.ts';
import { tokensOf } from '../../../src/core/classify/tokenModel.ts';

test('a code fence inside the text makes it Markdown, whatever the code is', () => {
  const readme = 'Install it, then:\n\n```js\nconst acorn = require("acorn");\nacorn.parse(code);\n```\n';
  assert.equal(correctedBySyntax(readme, 'js'), 'md');
  // Backticks inside code are not a fence.
  assert.equal(correctedBySyntax('const fence = "```";\nconsole.log(fence);\n', 'js'), 'js');
});

test('lines that are all `key: value` or list items are YAML; code with colons is not', () => {
  assert.equal(correctedBySyntax('rules:\n  eol-last: error\n  eqeqeq: [error, allow-null]\n  no-trailing-spaces: error\n', 'js'), 'yaml');
  assert.equal(correctedBySyntax('packages:\n- consumer-pkg\n- impl-pkg\n- logger-sig\n', 'txt'), 'yaml');
  // CSS declarations end with `;`, a Python dict's entries with `,`.
  assert.equal(correctedBySyntax('.a {\n  color: red;\n  margin: 0;\n  padding: 1px;\n}\n', 'css'), 'css');
  assert.equal(correctedBySyntax('config = {\n    "name": "x",\n    "size": 3,\n    "tags": [],\n}\n', 'py'), 'py');
});

test('the earlier corrections still hold: C++ syntax read as C, Kotlin read as Java, CommonJS read as TypeScript', () => {
  assert.equal(correctedBySyntax('std::vector<int> values;\nvalues.push_back(1);\n', 'c'), 'cpp');
  assert.equal(correctedBySyntax('fun main() {\n    val x = 1\n}\n', 'java'), 'kt');
  assert.equal(correctedBySyntax('const fs = require("fs");\nmodule.exports = fs;\n', 'ts'), 'js');
});

test('a name’s spelling is a token of its own', () => {
  const tokens = tokensOf('my_value = someValue + OtherValue + MAX_SIZE\n');
  for (const shape of ['Ksnake', 'Kcamel', 'KPascal', 'KCONST']) assert.ok(tokens.has(shape), shape);
  assert.ok(!tokensOf('x = y\n').has('Ksnake'));
});
