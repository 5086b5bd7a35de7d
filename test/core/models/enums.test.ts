import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '@pieces.app/pieces-os-client';
import {
  MODEL_FOUNDATION_VALUES,
  MODEL_PROVIDER_VALUES,
  MODEL_TYPE_VALUES,
  MODEL_USAGE_VALUES,
} from '../../../src/core/models/enums.ts';
import { shippedCatalog } from '../../../src/core/models/catalog.ts';

test('the enum values core validates with are exactly the client’s', () => {
  assert.deepEqual([...MODEL_USAGE_VALUES], Object.values(P.ModelUsageEnum));
  assert.deepEqual([...MODEL_TYPE_VALUES], Object.values(P.ModelTypeEnum));
  assert.deepEqual([...MODEL_FOUNDATION_VALUES], Object.values(P.ModelFoundationEnum));
  assert.deepEqual([...MODEL_PROVIDER_VALUES], Object.values(P.ExternalMLProviderEnum));
});

test('the shipped catalog is well formed: unique ids and files, known enums, https URLs', () => {
  const catalog = shippedCatalog();
  assert.ok(catalog.length > 0);
  assert.equal(new Set(catalog.map((e) => e.id)).size, catalog.length);
  assert.equal(new Set(catalog.map((e) => e.file)).size, catalog.length);
  for (const entry of catalog) {
    assert.ok((MODEL_USAGE_VALUES as readonly string[]).includes(entry.usage), entry.id);
    assert.ok((MODEL_FOUNDATION_VALUES as readonly string[]).includes(entry.foundation), entry.id);
    assert.ok((MODEL_TYPE_VALUES as readonly string[]).includes(entry.type), entry.id);
    assert.match(entry.url, /^https:\/\//);
    assert.match(entry.file, /\.gguf$/);
    assert.ok(entry.license && entry.bytes && entry.ramBytes, entry.id);
    if (entry.sha256) assert.match(entry.sha256, /^[0-9a-f]{64}$/);
  }
});
