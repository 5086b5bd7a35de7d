/**
 * Every route the app serves is a declared operation and every declared operation is served: the
 * router's table, walked after createApp, against src/wire's tables (method and path, order aside);
 * and every WebSocket stream is a declared socket or shares the path of a declared GET.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Router } from '@koa/router';
import { createApp } from '../../src/server/app.ts';
import { allOperations, allSockets } from '../../src/wire/operations.ts';
import { StreamRegistry } from '../../src/server/streams.ts';
import { pathOf, type PathParams } from '../../src/wire/operation.ts';
import { assetOperations } from '../../src/wire/assets.ts';
import { silentLogger } from '../../src/core/context.ts';
import { withCore } from '../support/helpers.ts';

/** `METHOD path` of every route the app's router holds (HEAD is Koa's companion of GET). */
function served(middleware: readonly unknown[]): string[] {
  const routers = middleware
    .map((fn) => (fn as { router?: Router }).router)
    .filter((router): router is Router => router !== undefined);
  assert.equal(routers.length, 1, 'the app has one router');
  return routers[0]!.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path}`));
}

const declared = allOperations.map(({ op }) => `${op.method} ${op.path}`);

test('the routes served are exactly the operations declared in src/wire', async () => {
  await withCore(async (core) => {
    const app = createApp(core, { logger: silentLogger });
    try {
      const routes = served(app.koa.middleware);
      assert.ok(routes.length > 100, `${routes.length} routes`);
      assert.deepEqual(
        {
          servedButNotDeclared: routes.filter((route) => !declared.includes(route)),
          declaredButNotServed: declared.filter((operation) => !routes.includes(operation)),
        },
        { servedButNotDeclared: [], declaredButNotServed: [] },
      );
      assert.equal(new Set(routes).size, routes.length, 'no route registered twice');
    } finally {
      app.dispose();
      app.streams.dispose();
    }
  });
});

test('the WebSocket streams served are the sockets declared and the paths of declared GETs', async () => {
  const registered: string[] = [];
  const register = StreamRegistry.prototype.register;
  StreamRegistry.prototype.register = function (this: StreamRegistry, pattern, handler) {
    registered.push(pattern);
    register.call(this, pattern, handler);
  };
  try {
    await withCore(async (core) => {
      const app = createApp(core, { logger: silentLogger });
      app.dispose();
      app.streams.dispose();
    });
  } finally {
    StreamRegistry.prototype.register = register;
  }
  const sockets = allSockets.map(({ socket }) => socket.path);
  const gets = allOperations.filter(({ op }) => op.method === 'GET').map(({ op }) => op.path);
  assert.ok(registered.length >= 10, `${registered.length} streams`);
  assert.deepEqual(
    {
      servedButNotDeclared: registered.filter((path) => !sockets.includes(path) && !gets.includes(path)),
      declaredButNotServed: sockets.filter((path) => !registered.includes(path)),
    },
    { servedButNotDeclared: [], declaredButNotServed: [] },
  );
});

test('each method and path is declared once', () => {
  const seen = new Map<string, string>();
  for (const { name, op } of allOperations) {
    const key = `${op.method} ${op.path}`;
    assert.equal(seen.get(key), undefined, `${name} repeats ${seen.get(key)} (${key})`);
    seen.set(key, name);
  }
});

test('path parameters are typed from the path and filled one segment each', () => {
  const names: PathParams<typeof assetOperations.associateTag.path>[] = ['asset', 'tag'];
  assert.deepEqual(names, ['asset', 'tag']);
  assert.equal(pathOf(assetOperations.associateTag, { asset: 'a/b', tag: 'c d' }), '/asset/a%2Fb/tags/associate/c%20d');
  assert.throws(() => pathOf(assetOperations.associateTag, { asset: 'a' }), /needs :tag/);
});
