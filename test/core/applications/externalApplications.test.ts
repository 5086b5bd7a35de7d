import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectInstalled, knownIntegrations, type Probe } from '../../../src/core/applications/externalApplications.ts';

/** A described machine: files that exist (with contents) and nothing else. */
function machine(platform: NodeJS.Platform, env: Record<string, string>, files: Record<string, string>): Probe {
  const paths = new Set<string>();
  for (const file of Object.keys(files)) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/') || '/');
  }
  return {
    platform,
    env,
    home: '/home/dev',
    exists: (path) => paths.has(path),
    list: (path) => [...new Set([...paths].filter((p) => p.startsWith(path.endsWith('/') ? path : path + '/')).map((p) => p.slice(path.length + (path.endsWith('/') ? 0 : 1)).split('/')[0]!))],
    read: (path) => files[path],
  };
}

test('Linux: editors on PATH and in install folders, with versions from their metadata', () => {
  const probe = machine('linux', { PATH: '/usr/bin:/home/dev/.local/bin' }, {
    '/usr/share/code/resources/app/package.json': JSON.stringify({ version: '1.101.2' }),
    '/usr/bin/nvim': '',
    '/home/dev/.local/bin/emacs': '',
    '/opt/pycharm-2024.3/product-info.json': JSON.stringify({ version: '2024.3.1' }),
    '/usr/lib/firefox/firefox': '',
    '/opt/Obsidian/obsidian': '',
  });
  assert.deepEqual(detectInstalled(probe), [
    { name: 'Visual Studio Code', version: '1.101.2' },
    { name: 'PyCharm', version: '2024.3.1' },
    { name: 'Neovim' },
    { name: 'Emacs' },
    { name: 'Obsidian' },
    { name: 'Firefox' },
  ]);
});

test('macOS reads bundle versions from Info.plist; Windows expands environment folders and .exe names', () => {
  const plist = (v: string) => `<plist><dict><key>CFBundleShortVersionString</key>\n<string>${v}</string></dict></plist>`;
  const mac = machine('darwin', { PATH: '/usr/local/bin' }, {
    '/Applications/Cursor.app/Contents/Info.plist': plist('0.45.1'),
    '/Applications/Sublime Text.app/Contents/Info.plist': plist('4180'),
    '/usr/local/bin/vim': '',
  });
  assert.deepEqual(detectInstalled(mac), [{ name: 'Cursor', version: '0.45.1' }, { name: 'Sublime Text', version: '4180' }, { name: 'Vim' }]);
  const windows = machine('win32', { Path: 'C:/tools', LOCALAPPDATA: 'C:/Users/dev/AppData/Local' }, {
    'C:/Users/dev/AppData/Local/Programs/Microsoft VS Code/resources/app/package.json': JSON.stringify({ version: '1.100.0' }),
    'C:/tools/nvim.exe': '',
  });
  assert.deepEqual(detectInstalled(windows), [{ name: 'Visual Studio Code', version: '1.100.0' }, { name: 'Neovim' }]);
});

test('an empty machine has nothing installed; the catalogue covers the usual editors and browsers', () => {
  assert.deepEqual(detectInstalled(machine('linux', { PATH: '/usr/bin' }, {})), []);
  const names = knownIntegrations.map((i) => i.name);
  for (const name of ['Visual Studio Code', 'Cursor', 'IntelliJ IDEA', 'Sublime Text', 'Vim', 'Neovim', 'Emacs', 'Google Chrome', 'Firefox', 'Obsidian']) {
    assert.ok(names.includes(name), name);
  }
});
