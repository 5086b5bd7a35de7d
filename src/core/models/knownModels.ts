/**
 * Every model Satchel knows, whatever its kind: the language classifier, the stand-ins for cloud
 * models, the catalog's GGUF models and the user's custom ones (with their stored rows).
 */
import type { Model, SeededModel } from '../piecesTypes.ts';
import { NotFoundError, UnsupportedError } from '../errors.ts';
import { catalogModel, classifierModel, CLASSIFIER_ID, ENCODER_ID, encoderModel, roleOf, standInModels, type CatalogEntry } from './catalog.ts';
import type { ModelRow, ModelStore } from './modelStore.ts';
import type { Role } from './loadedModels.ts';
import type { EncoderFiles } from './encoderFiles.ts';

/** A GGUF model: from the catalog or custom. */
export interface LanguageModel {
  readonly kind: 'llm';
  readonly base: Model;
  readonly role: Role;
  readonly custom: boolean;
  readonly source?: string;
  readonly file: string;
  readonly sha256?: string;
  readonly declaredBytes?: number;
  readonly declaredRam?: number;
  readonly row?: ModelRow;
}

export type Known =
  | { readonly kind: 'classifier'; readonly base: Model }
  | { readonly kind: 'encoder'; readonly base: Model; readonly files: EncoderFiles }
  | { readonly kind: 'standIn'; readonly base: Model }
  | LanguageModel;

/** Fields of a custom model that the user sets (the rest is derived or fixed). */
const EDITABLE = [
  'version', 'name', 'description', 'type', 'usage', 'bytes', 'ram', 'quantization', 'foundation', 'unique',
  'parameters', 'provider', 'cpu', 'maxTokens', 'capabilities',
] as const;

export function editableFields(seed: Partial<Model>): Partial<Model> {
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) if (seed[key] !== undefined) out[key] = seed[key];
  return out as Partial<Model>;
}

export class KnownModels {
  private readonly catalog: ReadonlyMap<string, CatalogEntry>;
  private readonly store: ModelStore;
  /** Fixed for the process: built once, not on every listing and lookup. */
  private readonly standIns: ReadonlyMap<string, Model> = new Map(standInModels().map((model) => [model.id, model]));

  /** The built-in sentence encoder's files, when this build carries them (the encoder is known only then). */
  private readonly encoder: EncoderFiles | undefined;

  constructor(catalog: readonly CatalogEntry[], store: ModelStore, encoder: EncoderFiles | undefined) {
    this.catalog = new Map(catalog.map((entry) => [entry.id, entry]));
    this.store = store;
    this.encoder = encoder;
  }

  all(): Known[] {
    const out: Known[] = [{ kind: 'classifier', base: classifierModel() }];
    if (this.encoder) out.push({ kind: 'encoder', base: encoderModel(), files: this.encoder });
    for (const entry of this.catalog.values()) out.push(fromCatalog(entry, this.store.get(entry.id)));
    for (const base of this.standIns.values()) out.push({ kind: 'standIn', base });
    for (const row of this.store.customs()) out.push(fromCustom(row));
    return out;
  }

  get(id: string): Known {
    if (id === CLASSIFIER_ID) return { kind: 'classifier', base: classifierModel() };
    if (id === ENCODER_ID && this.encoder) return { kind: 'encoder', base: encoderModel(), files: this.encoder };
    const standIn = this.standIns.get(id);
    if (standIn) return { kind: 'standIn', base: standIn };
    const entry = this.catalog.get(id);
    const row = this.store.get(id);
    if (entry) return fromCatalog(entry, row);
    if (row?.custom) return fromCustom(row);
    throw new NotFoundError('model', id);
  }

  languageModel(id: string): LanguageModel {
    const known = this.get(id);
    if (known.kind !== 'llm') throw new UnsupportedError(`${known.base.name} is not a language model.`);
    return known;
  }

  /** The model a seed names again: the same `unique`, or a custom one with the same name, version, usage and foundation. */
  duplicateOf(seed: SeededModel): Known | undefined {
    return this.all().find((known) => {
      if (seed.unique) return known.base.unique === seed.unique;
      return (
        known.kind === 'llm' &&
        known.custom &&
        !known.base.unique &&
        known.base.name === seed.name &&
        known.base.version === seed.version &&
        known.base.usage === seed.usage &&
        (known.base.foundation ?? 'UNKNOWN') === (seed.foundation ?? 'UNKNOWN')
      );
    });
  }
}

function fromCatalog(entry: CatalogEntry, row: ModelRow | undefined): LanguageModel {
  const sha256 = entry.sha256 ?? row?.sha256;
  return {
    kind: 'llm',
    base: catalogModel(entry),
    role: roleOf(entry.usage),
    custom: false,
    source: entry.url,
    file: entry.file,
    ...(sha256 ? { sha256 } : {}),
    ...(entry.bytes !== undefined ? { declaredBytes: entry.bytes } : {}),
    ...(entry.ramBytes !== undefined ? { declaredRam: entry.ramBytes } : {}),
    ...(row ? { row } : {}),
  };
}

function fromCustom(row: ModelRow): LanguageModel {
  const base = row.data!;
  return {
    kind: 'llm',
    base,
    role: roleOf(base.usage),
    custom: true,
    file: row.file ?? 'model.gguf',
    row,
    ...(row.source ? { source: row.source } : {}),
    ...(row.sha256 ? { sha256: row.sha256 } : {}),
    ...(base.bytes?.value !== undefined ? { declaredBytes: base.bytes.value } : {}),
    ...(base.ram?.value !== undefined ? { declaredRam: base.ram.value } : {}),
  };
}
