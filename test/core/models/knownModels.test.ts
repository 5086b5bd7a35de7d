import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnownModels } from '../../../src/core/models/knownModels.ts';
import { ENCODER_ID, STAND_IN_IDS } from '../../../src/core/models/catalog.ts';
import type { ModelStore } from '../../../src/core/models/modelStore.ts';
import { NotFoundError } from '../../../src/core/errors.ts';

const noRows = { get: () => undefined, customs: () => [] } as unknown as ModelStore;

test('the stand-ins for cloud models are built once and found by id', () => {
  const models = new KnownModels([], noRows, undefined);
  const standIns = () => models.all().filter((known) => known.kind === 'standIn').map((known) => known.base);
  const first = standIns();
  assert.deepEqual(first.map((model) => model.id), [...STAND_IN_IDS]);
  assert.equal(first[0]!.name, 'GPT-3.5-turbo Chat Model');
  const again = standIns();
  assert.ok(first.every((model, i) => model === again[i]), 'the same stand-ins on every listing');
  assert.equal(models.get(STAND_IN_IDS[1]).base, first[1]);
  assert.equal(models.get(STAND_IN_IDS[1]).kind, 'standIn');
  assert.throws(() => models.get('no-such-model'), NotFoundError);
});

test('the built-in encoder is listed and found only when the build carries its files', () => {
  const files = { modelDir: '/encoder/model' };
  const withFiles = new KnownModels([], noRows, files);
  assert.deepEqual(withFiles.all().filter((known) => known.kind === 'encoder').map((known) => known.base.id), [ENCODER_ID]);
  const found = withFiles.get(ENCODER_ID);
  assert.equal(found.kind, 'encoder');
  assert.equal(found.kind === 'encoder' ? found.files : undefined, files, 'the files it is loaded from come with it');
  const without = new KnownModels([], noRows, undefined);
  assert.equal(without.all().some((known) => known.kind === 'encoder'), false);
  assert.throws(() => without.get(ENCODER_ID), NotFoundError);
});
