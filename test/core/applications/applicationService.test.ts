import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreContext } from '../../../src/core/context.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { applicationMigrations } from '../../../src/core/applications/schema.ts';
import { ApplicationService } from '../../../src/core/applications/applicationService.ts';
import { NotFoundError } from '../../../src/core/errors.ts';
import type { Probe } from '../../../src/core/applications/externalApplications.ts';

const probe: Probe = {
  platform: 'linux',
  env: { PATH: '/usr/bin' },
  home: '/home/dev',
  exists: (path) => path === '/usr/bin' || path === '/usr/bin/nvim',
  list: () => [],
  read: () => undefined,
};

function open() {
  const dir = mkdtempSync(join(tmpdir(), 'satchel-apps-'));
  const context = StoreContext.open(dir, [...baseMigrations, ...applicationMigrations]);
  return { service: new ApplicationService(context, probe), context, close: () => (context.dispose(), rmSync(dir, { recursive: true, force: true })) };
}

test('connect finds or registers by name, version and platform; figures and status follow use', () => {
  const { service, close } = open();
  try {
    const seeded = { name: 'JETBRAINS', version: '2024.3', platform: 'MACOS' } as const;
    const a = service.connect(seeded);
    assert.equal(service.connect(seeded).id, a.id);
    assert.notEqual(service.connect({ ...seeded, platform: 'LINUX' }).id, a.id);
    service.bump(a.id, { copies: 2, references: 1 });
    const snapshot = service.specific(a.id);
    assert.deepEqual([snapshot.engagement.connections, snapshot.engagement.copies, snapshot.engagement.references], [2, 2, 1]);
    assert.equal(snapshot.status, 'ACTIVE');
    assert.equal(service.specific(a.id, Date.now() + 2 * 60 * 60 * 1000).status, 'INACTIVE');
    assert.throws(() => service.bump('missing', { copies: 1 }), NotFoundError);
    assert.equal(service.osId(), service.osId());
  } finally {
    close();
  }
});

test('sessions open and close (the latest open one when no id is given) and count usage while open', () => {
  const { service, close } = open();
  try {
    const session = service.openSession();
    service.recordUsage('keyboard', { description: 'save', shortcut: [17, 83] });
    const closed = service.closeSession();
    assert.equal(closed.id, session.id);
    assert.ok(closed.closed);
    assert.deepEqual(service.session(session.id).usage, { interactions: 0, keyboard: 1 });
    assert.throws(() => service.closeSession(), NotFoundError);
  } finally {
    close();
  }
});

test('external applications come from the injected probe; related lists every known integration', () => {
  const { service, close } = open();
  try {
    assert.deepEqual(service.external().iterable, [{ name: 'Neovim' }]);
    const related = service.related().iterable;
    assert.ok(related.length > 20);
    assert.deepEqual(related.find((a) => a.name === 'Neovim'), { name: 'Neovim' });
    assert.ok(related.some((a) => a.name === 'Visual Studio Code'));
  } finally {
    close();
  }
});
