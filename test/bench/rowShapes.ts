/**
 * Rows read through node:sqlite as it makes them, and through the store's statements
 * (sharedShapeRows.ts, issue 34): the time per row and the old generation each leaves behind.
 *
 *   ./node_modules/.bin/node --expose-gc --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/rowShapes.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import type { StatementSync } from 'node:sqlite';
import { Database } from '../../src/core/store/database.ts';

const ROWS = 300_000;
const gc = (globalThis as { gc?: () => void }).gc;
const oldSpace = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

const dataDir = mkdtempSync(join(tmpdir(), 'row-shapes-'));
const database = Database.open({ dataDir, migrations: [] });
database.db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT, w INTEGER, a TEXT, b TEXT, c INTEGER, d TEXT, e REAL)');
const insert = database.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
database.transaction(() => {
  for (let i = 0; i < 1000; i++) insert.run(`id${i}`, `v${i}`, i, 'a', 'b', i, 'd', 1.5);
});
const sql = 'SELECT id, v, w, a, b, c, d, e FROM t WHERE id = ?';

function measure(label: string, statement: StatementSync, rows: number): void {
  gc?.();
  const started = process.hrtime.bigint();
  for (let i = 0; i < rows; i++) statement.get(`id${i % 1000}`);
  const ns = Number(process.hrtime.bigint() - started) / rows;
  console.log(`${label.padEnd(28)} ${ns.toFixed(0).padStart(5)} ns a row`);
}

for (const round of [1, 2]) {
  measure(`node:sqlite's rows (${round})`, database.db.prepare(sql), ROWS);
  measure(`the store's rows (${round})`, database.prepare(sql), ROWS);
}
for (const [label, statement] of [["node:sqlite's rows", database.db.prepare(sql)], ["the store's rows", database.prepare(sql)]] as const) {
  gc?.();
  const before = oldSpace();
  for (let i = 0; i < 50_000; i++) statement.get(`id${i % 1000}`);
  // Too few rows for V8 to start a full collection in between: what the old generation grew by is what they left there.
  console.log(`${label.padEnd(28)} old generation +${((oldSpace() - before) / 2 ** 20).toFixed(1)} MB after 50k rows`);
}
database.close();
rmSync(dataDir, { recursive: true, force: true });
