/** A sync that deletes much of the library here takes a copy of the store first (docs/backups.md); an ordinary delete does not. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMachines } from './syncSupport.ts';
import { seed } from './vaultSupport.ts';
import { TEST_WRITE } from '../../support/authors.ts';

test('a confirmed mass delete arriving by sync is preceded by a before-delete-sync backup named in the summary; a single delete is not', { timeout: 120_000 }, async () => {
  await withMachines(async ({ a, b }) => {
    for (let i = 0; i < 10; i++) await a.assets.writes.create(seed(`s${i}\n`, { name: `S ${i}` }), TEST_WRITE);
    await a.sync.sync();
    await b.sync.sync();
    const [first, ...rest] = a.assets.identifiers();
    a.assets.writes.delete(first!, TEST_WRITE);
    await a.sync.sync();
    const single = await b.sync.sync();
    assert.equal(single.deletedHere, 1);
    assert.equal(single.backup, undefined);
    assert.deepEqual(b.backups.list().filter((copy) => copy.reason === 'before-delete-sync'), []);
    for (const id of rest.slice(0, 7)) a.assets.writes.delete(id, TEST_WRITE);
    await a.sync.sync({ confirmDeletes: true });
    await assert.rejects(b.sync.sync(), { name: 'MassDeleteError' });
    const confirmed = await b.sync.sync({ confirmDeletes: true });
    assert.equal(confirmed.deletedHere, 7);
    const copies = b.backups.list().filter((copy) => copy.reason === 'before-delete-sync');
    assert.equal(copies.length, 1);
    assert.equal(confirmed.backup, copies[0]!.name);
  });
});
