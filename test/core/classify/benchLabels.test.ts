/**
 * The benchmark's label rule (test/bench/languages/extract.ts): a file whose own shebang or editor
 * modeline names another language than its extension is not a sample of the extension's language.
 * It is decided from the file alone and applied alike to the tuning and the held-out packages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statesOtherLanguage } from '../../bench/languages/extract.ts';

test('a bash completion named `.py` with a shell-script modeline is not a Python sample', () => {
  const completion = ['# btdownloadheadless(1) completion                         -*- shell-script -*-', '', '_btdownload()', '{', '    local cur prev words cword'];
  assert.equal(statesOtherLanguage(completion, 'py'), true);
  assert.equal(statesOtherLanguage(completion, 'sh'), false);
});

test('a file whose shebang or modeline agrees with its extension, or that states nothing, stays', () => {
  assert.equal(statesOtherLanguage(['#!/usr/bin/env python3', 'import sys', 'print(sys.argv)'], 'py'), false);
  assert.equal(statesOtherLanguage(['import sys', 'print(sys.argv)'], 'py'), false);
  assert.equal(statesOtherLanguage(['#!/usr/bin/perl', 'print "hi";'], 'sh'), true);
  // `#!/usr/bin/env node` names the runtime of compiled TypeScript too.
  assert.equal(statesOtherLanguage(['#!/usr/bin/env node', 'const x: number = 1;'], 'ts'), false);
});
