/**
 * src/wire builds each body schema on first use (operation.ts `lazy`): loading the declarations builds
 * none, so the extension's client, which reads only methods, paths and reply kinds, never builds one
 * (test/packaging/activation.test.ts checks the bundle). A route reads the same schema every time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { lazy, post, json } from '../../src/wire/operation.ts';
import { allOperations } from '../../src/wire/operations.ts';

test('a declared body schema is built when first read, once', () => {
  let builds = 0;
  const schema = lazy(() => {
    builds++;
    return z.object({ name: z.string() });
  });
  const op = post('/satchel/example', json<{ ok: true }>(), 'example', schema);
  assert.equal(builds, 0, 'declaring builds nothing');
  assert.equal(op.method, 'POST');
  assert.equal(op.path, '/satchel/example');
  assert.equal(builds, 0, 'reading the method and path builds nothing');
  assert.equal(op.body.safeParse({ name: 1 }).success, false);
  assert.equal(op.body, op.body);
  assert.equal(builds, 1);
});

test("every declared body schema builds and parses, and each operation's is the same object on every read", () => {
  const withBody = allOperations.filter(({ op }) => op.body !== undefined);
  assert.ok(withBody.length > 40, `${withBody.length} operations read a body`);
  for (const { name, op } of withBody) {
    assert.ok(op.body instanceof z.ZodType, name);
    assert.equal(op.body, op.body, name);
    // Any input gets an answer (parsed or refused), never a throw from a half-built schema.
    assert.equal(typeof op.body.safeParse({}).success, 'boolean', name);
  }
});
