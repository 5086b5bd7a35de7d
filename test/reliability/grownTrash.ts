/** A large trash for the reliability suite, grown in SQL from a few assets deleted the ordinary way. */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { DATABASE_FILE } from '../../src/core/store/database.ts';
import { tempDir } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_WRITE } from '../support/authors.ts';

/** Assets made and deleted through core; the rest are their copies under new ids. */
export const SEEDS = 50;

/** A data directory whose trash holds `entries` assets: SEEDS deleted through core, copied in SQL under new ids. */
export async function grownTrash(entries: number): Promise<string> {
  const dataDir = tempDir('satchel-rel-trash-');
  const core = Satchel.open({ dataDir, importWorker: false });
  for (let i = 0; i < SEEDS; i++) {
    const asset = await core.assets.writes.create(codeSeed(`// seed ${i}\nexport const seed${i} = ${i};\n`, `seed ${i}`, { tags: [`tag${i % 5}`] }), TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: `// seed ${i}, edited\nexport const seed${i} = ${i * 2};\n` } }, TEST_WRITE);
    core.assets.writes.delete(asset.id, TEST_WRITE);
  }
  await core.close();
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec('BEGIN');
    db.exec('CREATE TEMP TABLE seeds AS SELECT id FROM trash');
    db.prepare('CREATE TEMP TABLE copies AS WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?) SELECT n FROM k').run(Math.ceil(entries / SEEDS) - 1);
    const copy = (sql: string) => db.exec(sql);
    copy(`INSERT INTO trash (id, kind, name, preview, language, messages, deleted, author_kind, author_name, size, facts, data)
          SELECT t.id || '.' || c.n, kind, name, preview, language, messages, deleted - c.n, author_kind, author_name, size, facts, data
          FROM trash t JOIN seeds s ON s.id = t.id, copies c`);
    copy(`INSERT INTO trash_links (owner, a_kind, a_id, b_kind, b_id, created)
          SELECT l.owner || '.' || c.n, a_kind, CASE WHEN a_id = l.owner THEN a_id || '.' || c.n ELSE a_id END,
                 b_kind, CASE WHEN b_id = l.owner THEN b_id || '.' || c.n ELSE b_id END, created
          FROM trash_links l JOIN seeds s ON s.id = l.owner, copies c`);
    copy(`INSERT INTO trash_records (owner, kind, id, owned, created, updated, data, lookup)
          SELECT r.owner || '.' || c.n, kind, r.id, owned, created, updated, data, lookup FROM trash_records r JOIN seeds s ON s.id = r.owner, copies c`);
    copy(`INSERT INTO revisions (id, asset_id, created, author_kind, author_name, changes, name, language, tags, content_hash, size, description_hash, restored_from)
          SELECT r.id || '.' || c.n, r.asset_id || '.' || c.n, created, author_kind, author_name, changes, name, language, tags, content_hash, size, description_hash, restored_from
          FROM revisions r JOIN seeds s ON s.id = r.asset_id, copies c`);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  return dataDir;
}

