/** Assets, one asset, and its formats: the operations the extension's Assets view and commands use. */
import type {
  Application,
  Asset,
  Assets,
  ClassificationSpecific,
  ExportedAsset,
  Formats,
  SearchedAssets,
  Seed,
  Tag,
  Website,
} from '../core/piecesTypes.ts';
import { assetOperations as op } from '../wire/assets.ts';
import type { HttpTransport } from './http.ts';
import { writeHeaders, type WriteCondition } from './history.ts';

export type ExportType = 'MD' | 'HTML';

export interface TextSeed {
  readonly text: string;
  readonly application: Application;
  /** A language hint (a ClassificationSpecific such as `ts`); the server classifies when absent. */
  readonly language?: string;
  readonly name?: string;
  /** Tags made (or found) and linked in the same write. */
  readonly tags?: readonly string[];
}

export class AssetsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  list(options: { suggested?: boolean; transferables?: boolean } = {}): Promise<Assets> {
    return this.http.call(op.list, { query: { transferables: options.transferables ?? true, suggested: options.suggested } });
  }

  get(id: string, transferables = true): Promise<Asset> {
    return this.http.call(op.snapshot, { params: { asset: id }, query: { transferables } });
  }

  /** The asset and its current revision (the ETag): what a conditional update or delete is based on. */
  async getRevised(id: string, transferables = true): Promise<{ asset: Asset; revision: string | undefined }> {
    const { value, revision } = await this.http.callRevised(op.snapshot, { params: { asset: id }, query: { transferables } });
    return { asset: value, revision };
  }

  /** `condition.author`: another author for this create (an agent saving through the extension's client). */
  create(seed: Seed, condition?: WriteCondition): Promise<Asset> {
    return this.http.call(op.create, { body: seed, headers: writeHeaders(condition) });
  }

  createFromText(seed: TextSeed, condition?: WriteCondition): Promise<Asset> {
    return this.create(textSeed(seed), condition);
  }

  /** A file saved as an asset keeps its name; its content travels as a text fragment. */
  createFromFile(file: { name: string; text: string; language?: string; application: Application }): Promise<Asset> {
    return this.createFromText({ ...file });
  }

  /**
   * `condition.expectedRevision` makes it conditional (If-Match): a ClientError with `staleRevision`
   * when the asset changed since, and nothing written. Resolves to the asset and its new revision.
   */
  async updateRevised(asset: Asset, condition?: WriteCondition): Promise<{ asset: Asset; revision: string | undefined }> {
    const { value, revision } = await this.http.callRevised(op.update, { body: asset, headers: writeHeaders(condition) });
    return { asset: value, revision };
  }

  update(asset: Asset, condition?: WriteCondition): Promise<Asset> {
    return this.http.call(op.update, { body: asset, headers: writeHeaders(condition) });
  }

  async rename(id: string, name: string): Promise<Asset> {
    const asset = await this.get(id, false);
    return this.update({ ...asset, name });
  }

  /** Returns the deleted id; conditional as `update` when given the revision the caller read. */
  delete(id: string, condition?: WriteCondition): Promise<string> {
    return this.http.call(op.delete, { params: { asset: id }, headers: writeHeaders(condition) });
  }

  search(query: string, options: { tags?: readonly string[]; signal?: AbortSignal } = {}): Promise<SearchedAssets> {
    return this.http.call(op.searchGet, {
      query: { query: query || undefined, searchable_tags: options.tags?.join(','), transferables: true },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  reclassify(asset: Asset, ext: ClassificationSpecific | string): Promise<Asset> {
    return this.http.call(op.reclassify, { query: { transferables: true }, body: { ext, asset } });
  }

  export(id: string, type: ExportType): Promise<ExportedAsset> {
    return this.http.call(op.export, { params: { asset: id }, query: { export_type: type } });
  }

  formats(id: string): Promise<Formats> {
    return this.http.call(op.formats, { params: { asset: id }, query: { transferables: true } });
  }

  /** Tags the asset with `text` (the tag is created, or the existing one with that text reused). */
  addTag(id: string, text: string): Promise<Tag> {
    return this.http.call(op.createTag, { body: { text, asset: id } });
  }

  /** Removes a tag (by tag id) from the asset. */
  removeTag(id: string, tag: string): Promise<void> {
    return this.http.call(op.disassociateTag, { params: { asset: id, tag } });
  }

  /** Links a website to the asset (the website record is created or reused). */
  linkWebsite(id: string, url: string, name?: string): Promise<Website> {
    return this.http.call(op.createWebsite, { body: { url, name: name ?? url, asset: id } });
  }

  unlinkWebsite(id: string, website: string): Promise<void> {
    return this.http.call(op.disassociateWebsite, { params: { asset: id, website } });
  }
}

export function textSeed(seed: TextSeed): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: seed.application,
      format: {
        fragment: { string: { raw: seed.text } },
        ...(seed.language ? { classification: { specific: seed.language as ClassificationSpecific } } : {}),
      },
      ...(seed.name || seed.tags?.length
        ? { metadata: { ...(seed.name ? { name: seed.name } : {}), ...(seed.tags?.length ? { tags: seed.tags.map((text) => ({ text })) } : {}) } }
        : {}),
    },
  } as Seed;
}

/** The text of an asset's original (or first) fragment format, when the reply carries transferables. */
export function assetText(asset: Asset): string {
  const formats = asset.formats?.iterable ?? [];
  const original = formats.find((format) => format.id === asset.original?.id) ?? formats[0];
  return original?.fragment?.string?.raw ?? '';
}

/**
 * Whether the record carries the content of its original format: a reply without transferables (what
 * the Assets view holds of each snippet) does not, and its text must be asked for.
 */
export function hasContent(asset: Asset): boolean {
  const formats = asset.formats?.iterable ?? [];
  const original = formats.find((format) => format.id === asset.original?.id) ?? formats[0];
  return Boolean(original && (original.fragment?.string ?? original.fragment?.bytes ?? original.file?.string ?? original.file?.bytes));
}

/** The language of the asset's original format (`ts`, `py`…), or undefined when unclassified. */
export function assetLanguage(asset: Asset): string | undefined {
  return asset.original?.reference?.classification?.specific ?? asset.formats?.iterable?.[0]?.classification?.specific;
}
