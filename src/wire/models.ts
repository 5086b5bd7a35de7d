/**
 * zod schemas of the request bodies of the models area. Enum fields are checked against the
 * client's values (a wrong one would be stored); unknown keys are dropped, derived fields
 * (downloaded, loaded, downloading) are read but ignored by core.
 */
import { z } from 'zod';
import {
  MODEL_FOUNDATION_VALUES,
  MODEL_PROVIDER_VALUES,
  MODEL_TYPE_VALUES,
  MODEL_USAGE_VALUES,
} from '../core/models/enums.ts';
import { byteDescriptor } from '../core/models/catalog.ts';
import type * as W from '../core/piecesTypes.ts';
import { lazy, get, json, none, post, type Accepts } from './operation.ts';

const timestamp = lazy(() => z.object({
  value: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO-8601 date'),
  readable: z.string().optional(),
}));

// `readable` is required on the wire; a caller that only sends the number gets it filled in.
const bytes = lazy(() => z
  .object({ value: z.number().int().nonnegative(), readable: z.string().optional() })
  .transform((b) => (b.readable ? { value: b.value, readable: b.readable } : byteDescriptor(b.value))));

const tokens = lazy(() => z.number().int().positive().nullable());

const fields = lazy(() => ({
  version: z.string(),
  created: timestamp(),
  name: z.string().trim().min(1, 'must not be empty'),
  description: z.string().optional(),
  cloud: z.boolean(),
  type: z.enum(MODEL_TYPE_VALUES),
  usage: z.enum(MODEL_USAGE_VALUES),
  bytes: bytes().optional(),
  ram: bytes().optional(),
  quantization: z.string().optional(),
  foundation: z.enum(MODEL_FOUNDATION_VALUES).optional(),
  downloaded: z.boolean().optional(),
  unique: z.string().trim().min(1).optional(),
  parameters: z.number().nonnegative().nullable().optional(),
  provider: z.enum(MODEL_PROVIDER_VALUES).optional(),
  cpu: z.boolean().optional(),
  maxTokens: z.object({ total: tokens(), input: tokens().optional(), output: tokens().optional() }).optional(),
  custom: z.boolean().optional(),
  capabilities: z
    .object({
      temporal: z.boolean().optional(),
      images: z.boolean().optional(),
      videos: z.boolean().optional(),
      documents: z.boolean().optional(),
      codebases: z.boolean().optional(),
      assets: z.boolean().optional(),
      websites: z.boolean().optional(),
    })
    .optional(),
}));

export const seededModelSchema = lazy(() => z.object(fields()));

export const modelSchema = lazy(() => z.object({
  ...fields(),
  id: z.string().min(1),
  loaded: z.boolean().optional(),
  downloading: z.boolean().optional(),
}));

/** Body of POST /models/import: a GGUF file already on this machine. */
export const modelImportSchema = lazy(() => z.object({
  path: z.string().min(1),
  name: z.string().trim().min(1).optional(),
  description: z.string().optional(),
  version: z.string().min(1).optional(),
  usage: z.enum(MODEL_USAGE_VALUES).optional(),
  foundation: z.enum(MODEL_FOUNDATION_VALUES).optional(),
}));

/** ModelDeleteCacheInput carries nothing Satchel reads; it may be absent. */
export const deleteCacheSchema = lazy(() => z.union([z.undefined(), z.null(), z.looseObject({})]));

/**
 * The models area (interface.md §4.6–4.7, and the file import): route and client both use these.
 * The Pieces paths show a model that cannot chat as not downloaded (core/models/piecesView.ts);
 * the two /satchel/ reads give every model's true state, for Satchel's own views.
 */
export const modelOperations = {
  streamIdentifiers: get('/models/stream/identifiers', json<W.StreamedIdentifiers>()),
  downloadProgress: get('/model/:model/download/progress', json<W.ModelDownloadProgress>()),
  list: get('/models', json<W.Models>()),
  create: post('/models/create', json<W.Model>(), 'SeededModel', seededModelSchema),
  /** A GGUF file already on this machine, copied into the data directory and verified. */
  import: post('/models/import', json<W.Model>(), 'model import', modelImportSchema),
  unloadAll: post('/models/unload', none),
  delete: post('/models/:model/delete', none),
  deleteCache: post('/models/:model/delete/cache', json<W.ModelDeleteCacheOutput>(), 'ModelDeleteCacheInput', deleteCacheSchema),
  update: post('/model/update', json<W.Model>(), 'Model', modelSchema),
  get: get('/model/:model', json<W.Model>()),
  download: post('/model/:model/download', json<W.Model>()),
  cancelDownload: post('/model/:model/download/cancel', json<W.Model>()),
  load: post('/model/:model/load', json<W.Model>()),
  unload: post('/model/:model/unload', json<W.Model>()),
  /** Every model with its true state (the classifier and embedding models downloaded as they are). */
  satchelList: get('/satchel/models', json<W.Models>()),
  satchelGet: get('/satchel/models/:model', json<W.Model>()),
} as const;

/** Every body the published models allow is accepted (see Accepts). */
export type PublishedModelBodies = [
  Accepts<ReturnType<typeof seededModelSchema>, W.SeededModel>,
  Accepts<ReturnType<typeof modelSchema>, W.Model>,
  Accepts<ReturnType<typeof deleteCacheSchema>, W.ModelDeleteCacheInput>,
];
