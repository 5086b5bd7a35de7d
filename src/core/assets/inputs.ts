/**
 * What the asset operations read from a request, as structural types. Each published model (Seed,
 * Asset, Format, Assets, …) satisfies its input type, and so does a body parsed by src/wire: a
 * partial application, an update that names only what it changes, a language given as any string
 * (checked here, in core, so every caller gets the same "Unknown classification" answer).
 */
import type { Application, Asset, ClassificationGeneric, GroupedTimestamp, Seed, Tag, TransferableBytes, TransferableString } from '../piecesTypes.ts';

/** A fragment or file as it carries content: text or bytes, and the language or file name it names. */
export interface ContentPartInput {
  readonly string?: TransferableString;
  readonly bytes?: TransferableBytes;
  readonly metadata?: { readonly ext?: string; readonly name?: string; readonly size?: number };
}

/** The content-bearing part of a (Seeded)Format. */
export interface FormatContentInput {
  readonly fragment?: ContentPartInput;
  readonly file?: ContentPartInput;
}

/** A (Seeded)Format's content and classification; `specific` is checked before it is stored. */
export interface FormatInput extends FormatContentInput {
  readonly classification?: { readonly generic?: ClassificationGeneric; readonly specific?: string };
}

/** A Format sent to change a stored one (POST /format/update/value, or inside an asset update). */
export interface FormatUpdateInput extends FormatInput {
  readonly id: string;
}

export interface SeededAssetInput {
  readonly application?: Partial<Application>;
  readonly format: FormatInput;
  readonly metadata?: {
    readonly name?: string;
    readonly mechanism?: Asset['mechanism'];
    readonly tags?: readonly { readonly text: string; readonly category?: Tag['category'] }[];
    readonly websites?: readonly { readonly url: string; readonly name: string }[];
  };
  readonly pseudo?: boolean;
  readonly discovered?: boolean;
  readonly demo?: boolean;
}

/** POST /assets/create and /assets/draft. */
export interface SeedInput {
  readonly type?: Seed['type'];
  readonly asset?: SeededAssetInput;
}

/** POST /asset/update: the asset's id and whatever it changes. */
export interface AssetUpdateInput {
  readonly id: string;
  readonly name?: string;
  readonly mechanism?: Asset['mechanism'];
  readonly score?: Partial<Asset['score']>;
  readonly favorited?: boolean;
  readonly curated?: boolean;
  readonly discovered?: boolean;
  readonly demo?: boolean;
  readonly pseudo?: boolean;
  readonly interacted?: GroupedTimestamp;
  readonly formats?: { readonly iterable: readonly FormatUpdateInput[] };
}

/** An asset named by id, or given by its content (related and recommended). */
export interface AssetReferenceInput {
  readonly id?: string;
  readonly formats?: { readonly iterable: readonly FormatContentInput[] };
}

/** POST /assets/related. */
export interface RelatedInput {
  readonly iterable: readonly AssetReferenceInput[];
}

/** POST /assets/recommended: assets and interactions, index-paired. */
export interface RecommendationInput {
  readonly assets: RelatedInput;
  readonly interactions: {
    readonly iterable: readonly {
      readonly asset?: string;
      // `viewed` is part of the published model; only touches and scrolls weigh in.
      readonly interactions?: { readonly viewed?: string; readonly touched?: boolean; readonly scrolled?: boolean };
    }[];
  };
}

interface TimeRangeInput {
  readonly from?: { readonly value: string };
  readonly to?: { readonly value: string };
  readonly between?: boolean;
}

/** One AssetFilter; `classification` is compared with the stored languages as given. */
export interface AssetFilterInput {
  readonly classification?: string;
  readonly tags?: readonly string[];
  readonly websites?: readonly string[];
  readonly persons?: readonly string[];
  readonly phrase?: { readonly value?: string; readonly annotation?: boolean; readonly title?: boolean; readonly content?: boolean };
  readonly created?: TimeRangeInput;
  readonly updated?: TimeRangeInput;
  readonly operations?: AssetFiltersInput;
}

export interface AssetFiltersInput {
  readonly iterable: readonly AssetFilterInput[];
  readonly type?: 'UNKNOWN' | 'AND' | 'OR';
}

interface IdentifiersInput {
  readonly iterable?: readonly { readonly id: string }[];
}

/** POST /assets/search. `identifers` is the wire spelling (a typo in the interface); the corrected one is read too. */
export interface SearchWithFiltersInput {
  readonly query?: string;
  readonly casing?: boolean;
  readonly space?: { readonly identifers?: IdentifiersInput; readonly identifiers?: IdentifiersInput };
  readonly filters?: AssetFiltersInput;
}
