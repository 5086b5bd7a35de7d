/**
 * The third-party notices a .vsix carries (scripts/notices.mjs): which package a bundled file is of,
 * and the notices text of packages with and without a license file (test/packaging/vsix.test.ts
 * checks the packaged file against what ships).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRootOf, thirdPartyNotices } from '../../scripts/notices.mjs';
import { tempDir } from '../support/helpers.ts';

test('a bundled file belongs to the package of the last node_modules in its path; a file of no package to none', () => {
  assert.equal(packageRootOf('node_modules/koa/lib/application.js'), 'node_modules/koa');
  assert.equal(packageRootOf('node_modules/@koa/router/dist/router.js'), 'node_modules/@koa/router');
  assert.equal(packageRootOf('node_modules/accepts/node_modules/mime-types/index.js'), 'node_modules/accepts/node_modules/mime-types');
  assert.equal(packageRootOf('node_modules\\@scope\\name\\index.js'), 'node_modules/@scope/name');
  assert.equal(packageRootOf('src/core/satchel.ts'), undefined);
  assert.equal(packageRootOf('node_modules/@scope'), undefined);
});

test('each package is listed once, by name, with its license and the text of each license file; one without a file says what its manifest states', () => {
  const dir = tempDir('satchel-notices-');
  try {
    const pkg = (name: string, manifest: object, files: Record<string, string>): string => {
      const at = join(dir, 'node_modules', name);
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '1.2.3', ...manifest }));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(at, file), text);
      return at;
    };
    const zeta = pkg('zeta', { license: 'MIT', repository: { url: 'https://example.test/zeta' } }, { 'LICENSE.md': 'Copyright (c) Zeta Authors\r\nPermission is hereby granted' });
    const alpha = pkg('@scope/alpha', { license: 'ISC', author: { name: 'A. Author' } }, { 'README.md': 'not a license' });
    const both = pkg('both', { license: 'MIT OR Apache-2.0' }, { 'LICENSE-MIT': 'MIT text', 'LICENSE-APACHE': 'Apache text' });
    const text = thirdPartyNotices([zeta, alpha, both, zeta]);
    const headings = [...text.matchAll(/^(\S+) 1\.2\.3 \((.+)\)$/gm)].map((match) => `${match[1]} ${match[2]}`);
    assert.deepEqual(headings, ['@scope/alpha ISC', 'both MIT OR Apache-2.0', 'zeta MIT']);
    assert.match(text, /Copyright \(c\) Zeta Authors\nPermission is hereby granted/, 'the license file, with its line ends made plain');
    assert.match(text, /https:\/\/example\.test\/zeta/);
    assert.match(text, /no license file; its package\.json states the license ISC, by A\. Author/);
    assert.doesNotMatch(text, /not a license/);
    assert.match(text, /--- LICENSE-APACHE ---\nApache text\n\n--- LICENSE-MIT ---\nMIT text/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
