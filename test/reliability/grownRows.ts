/** Rows grown in SQL for the reliability fixtures: making thousands through the API would spend the test indexing what it does not read. */
import type { DatabaseSync } from 'node:sqlite';

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
