import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Database } from '../../../src/core/store/database.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { assetMigrations } from '../../../src/core/assets/schema.ts';
import { tempDir } from '../../support/helpers.ts';

test('upgrading a store gives every asset its label row (name and tags) for the in-memory label index', () => {
  const dataDir = tempDir();
  const old = Database.open({ dataDir, migrations: [...baseMigrations, assetMigrations[0]!] });
  const insert = old.db.prepare(
    `INSERT INTO assets (id, created, updated, name, language, keywords, data) VALUES (?, '', '', ?, 'ts', ?, '{}')`,
  );
  insert.run('a', 'Debounce input', 'ui events\nsetTimeout clearTimeout');
  insert.run('b', 'No tags', '\nidentifierOnly');
  insert.run('c', 'Legacy row', '');
  old.close();
  const database = Database.open({ dataDir, migrations: [...baseMigrations, ...assetMigrations] });
  try {
    const rows = database.db.prepare('SELECT label FROM asset_labels ORDER BY rowid').all() as Array<{ label: string }>;
    assert.deepEqual(rows.map((row) => row.label), ['Debounce input ui events', 'No tags ', 'Legacy row ']);
  } finally {
    database.close();
  }
});
