import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from '../../src/core/dataDir.ts';

test('the data directory follows each platform, and SATCHEL_DATA_DIR overrides it', () => {
  assert.equal(defaultDataDir({ SATCHEL_DATA_DIR: '/x' }, 'linux'), '/x');
  assert.equal(defaultDataDir({ XDG_DATA_HOME: '/data' }, 'linux'), '/data/satchel');
  assert.equal(defaultDataDir({}, 'linux'), join(homedir(), '.local', 'share', 'satchel'));
  assert.equal(defaultDataDir({}, 'darwin'), join(homedir(), 'Library', 'Application Support', 'Satchel'));
  assert.equal(defaultDataDir({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32'), join('C:/Users/u/AppData/Roaming', 'Satchel'));
});
