/**
 * piecesView: what Pieces clients' chat pickers read of a model (cloud or downloaded) never holds a
 * model that cannot chat, and nothing else of any model changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogModel, classifierModel, encoderModel, shippedCatalog, standInModels } from '../../../src/core/models/catalog.ts';
import { piecesView, piecesViews } from '../../../src/core/models/piecesView.ts';
import type { Model } from '../../../src/core/piecesTypes.ts';

const downloaded = (model: Model): Model => ({ ...model, downloaded: true, downloading: false, loaded: true });

test('the classifier and embedding models are shown as not downloaded; the rest of them as they are', () => {
  const embedding = shippedCatalog().find((entry) => entry.usage === 'TEXT_EMBEDDING');
  assert.ok(embedding, 'the catalog has an embedding model');
  for (const model of [classifierModel(), encoderModel(), catalogModel(embedding)].map(downloaded)) {
    const shown = piecesView(model);
    assert.equal(shown.downloaded, false, model.name);
    assert.equal(shown.cloud, false, model.name);
    assert.deepEqual({ ...shown, downloaded: true }, model, `${model.name}: only downloaded differs`);
  }
});

test('chat models pass unchanged, downloaded or not, stand-ins included', () => {
  const chat = shippedCatalog().filter((entry) => entry.usage !== 'TEXT_EMBEDDING').map(catalogModel);
  assert.ok(chat.length > 0);
  for (const model of [...chat, ...chat.map(downloaded), ...standInModels()]) assert.equal(piecesView(model), model, model.name);
  const list = { iterable: [downloaded(classifierModel()), ...chat.map(downloaded)] };
  const shown = piecesViews(list);
  assert.deepEqual(shown.iterable.map((m) => m.id), list.iterable.map((m) => m.id));
  assert.deepEqual(shown.iterable.filter((m) => m.cloud || m.downloaded).map((m) => m.id), chat.map((m) => m.id));
});
