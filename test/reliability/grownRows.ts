/** Rows grown in SQL for the reliability fixtures: making thousands through the API would spend the test indexing what it does not read. */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { seed } from './writes.ts';

/**
 * A store in `dataDir` holding a small snippet per entry of `snippets` (made the ordinary way, so
 * they are indexed and have revisions), then grown by `grow` on a connection of its own before any
 * host opens it. Resolves with the snippets' ids, in order.
 */
export async function grownStore(
  dataDir: string,
  snippets: ReadonlyArray<{ readonly text: string; readonly name?: string }>,
  grow: (db: DatabaseSync, ids: readonly string[]) => void,
): Promise<string[]> {
  const core = Satchel.open({ dataDir });
  const ids: string[] = [];
  for (const { text, name } of snippets) ids.push((await core.assets.writes.create(seed(text, name) as never, TEST_WRITE)).id);
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    grow(db, ids);
  } finally {
    db.close();
  }
  return ids;
}

/**
 * Makes the content of each asset of `ids` `bytes` of source lines between the markers
 * `/*BEGIN-<i>*\/` and `/*END-<i>*\/` (i its place in `ids`), so a reply too large to parse can
 * still be checked; returns, per asset, the JSON-encoded characters from its BEGIN marker to its END.
 */
export function growContent(db: DatabaseSync, ids: readonly string[], bytes: number): number[] {
  const line = 'const value_0123456789 = compute(alpha, beta, gamma); // padding\n';
  const padding = line.repeat(Math.ceil(bytes / line.length));
  const grow = db.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`);
  return ids.map((id, i) => {
    const head = `/*BEGIN-${i}*/${padding}`;
    grow.run(`${head}/*END-${i}*/`, id);
    return JSON.stringify(head).length - 2;
  });
}

/**
 * `count` copies of the asset `template`, ids `10000000-0000-4000-8000-<i>` and names `probe <i>`
 * (i from 1), copy i created i seconds before now (so the template, made just before, is the newest).
 */
export function copyAsset(db: DatabaseSync, template: string, count: number): void {
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
     copies AS (SELECT i, printf('10000000-0000-4000-8000-%012d', i) AS id,
                       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' seconds') AS created FROM n)
     INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, keywords, data)
     SELECT c.id, c.created, c.created, 0, 0, 'probe ' || c.i, a.language, a.keywords,
            json_set(a.data, '$.id', c.id, '$.name', 'probe ' || c.i, '$.created.value', c.created, '$.updated.value', c.created)
     FROM copies c, assets a WHERE a.id = ? ORDER BY c.i DESC`,
  ).run(count, template);
}
