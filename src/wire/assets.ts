/**
 * zod schemas of the request bodies of the assets area: the fields Satchel reads are checked for
 * type (and enum values where a wrong one would be stored); unknown keys pass through untouched,
 * as the client may send fields Satchel ignores.
 */
import { z } from 'zod';
import { mechanism, seededScoreFields, transferableBytesFields, transferableStringFields } from './shared.ts';
import type * as W from '../core/wire.ts';
import type * as In from '../core/assets/inputs.ts';
import { operation, type Accepts, type Feeds } from './operation.ts';

const GENERIC = ['UNKNOWN', 'CODE', 'TEXT', 'IMAGE', 'VIDEO', 'EXTERNAL_RESOURCE_REFERENCE', 'FILE'] as const;
const TAG_CATEGORY = ['UNKNOWN', 'HANDLE', 'EMAIL'] as const;

const transferableString = z.looseObject(transferableStringFields);
const transferableBytes = z.looseObject(transferableBytesFields);
const fragment = z.looseObject({
  string: transferableString.optional(),
  bytes: transferableBytes.optional(),
  metadata: z.looseObject({ ext: z.string().optional() }).optional(),
});
const file = z.looseObject({
  string: transferableString.optional(),
  bytes: transferableBytes.optional(),
  metadata: z.looseObject({ name: z.string().optional(), ext: z.string().optional(), size: z.number().optional() }).optional(),
});
const classification = z.looseObject({ generic: z.enum(GENERIC).optional(), specific: z.string().optional() });
const timestamp = z.looseObject({ value: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'not an ISO date') });
const reference = z.looseObject({ id: z.string().min(1) });

export const seedSchema = z.looseObject({
  type: z.enum(['UNKNOWN', 'SEEDED_FORMAT', 'SEEDED_ASSET']).optional(),
  asset: z
    .looseObject({
      application: z.looseObject({ id: z.string().optional(), name: z.string().optional() }).optional(),
      format: z.looseObject({ fragment: fragment.optional(), file: file.optional(), classification: classification.optional() }),
      metadata: z
        .looseObject({
          name: z.string().optional(),
          mechanism: mechanism.optional(),
          tags: z.array(z.looseObject({ text: z.string().min(1), category: z.enum(TAG_CATEGORY).optional() })).optional(),
          websites: z.array(z.looseObject({ url: z.string().min(1), name: z.string() })).optional(),
        })
        .optional(),
      pseudo: z.boolean().optional(),
      discovered: z.boolean().optional(),
      demo: z.boolean().optional(),
    })
    .optional(),
});

const formatInput = z.looseObject({
  id: z.string().min(1),
  fragment: fragment.optional(),
  file: file.optional(),
  classification: classification.optional(),
});

const score = z.looseObject({
  manual: z.number().optional(),
  automatic: z.number().optional(),
  priority: z.number().optional(),
  reuse: z.number().optional(),
  update: z.number().optional(),
  reference: z.number().optional(),
  searched: z.number().optional(),
});

export const assetSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  mechanism: mechanism.optional(),
  formats: z.looseObject({ iterable: z.array(formatInput) }).optional(),
  score: score.optional(),
  favorited: z.boolean().optional(),
  curated: z.boolean().optional(),
  discovered: z.boolean().optional(),
  demo: z.boolean().optional(),
  pseudo: z.boolean().optional(),
  interacted: timestamp.optional(),
});

export const formatSchema = formatInput;

export const reclassificationSchema = z.looseObject({ ext: z.string().min(1), asset: reference });

const seededScore = z.looseObject(seededScoreFields);
export const scoreIncrementSchema = z.looseObject({ asset: seededScore.optional(), assets: seededScore.optional() }).optional();

export const accessorSchema = z.looseObject({ os: z.string().optional(), share: z.string().optional() }).optional();

const flattenedAssets = z.looseObject({ iterable: z.array(reference) });
const filterTimestamp = z.looseObject({ from: timestamp.optional(), to: timestamp.optional(), between: z.boolean().optional() });

const assetFilter = z.looseObject({
  classification: z.string().optional(),
  tags: z.array(z.string()).optional(),
  websites: z.array(z.string()).optional(),
  persons: z.array(z.string()).optional(),
  phrase: z
    .looseObject({
      value: z.string().optional(),
      annotation: z.boolean().optional(),
      title: z.boolean().optional(),
      content: z.boolean().optional(),
    })
    .optional(),
  created: filterTimestamp.optional(),
  updated: filterTimestamp.optional(),
  get operations() {
    return assetFilters.optional();
  },
});
// Annotated (it is recursive) with the core's filter type, so the two cannot drift apart.
const assetFilters: z.ZodType<In.AssetFiltersInput, In.AssetFiltersInput> = z.looseObject({
  iterable: z.array(assetFilter),
  type: z.enum(['UNKNOWN', 'AND', 'OR']).optional(),
});

export const searchWithFiltersSchema = z
  .looseObject({
    query: z.string().optional(),
    casing: z.boolean().optional(),
    // `identifers` is the wire spelling (a typo in the interface); the corrected one is accepted too.
    space: z.looseObject({ identifers: flattenedAssets.optional(), identifiers: flattenedAssets.optional() }).optional(),
    filters: assetFilters.optional(),
  })
  .optional();

const assetsInput = z.looseObject({
  iterable: z.array(z.looseObject({ id: z.string().optional(), formats: z.looseObject({ iterable: z.array(z.looseObject({})) }).optional() })),
});
export const relatedSchema = assetsInput.optional();

export const recommendationSchema = z
  .looseObject({
    assets: assetsInput,
    interactions: z.looseObject({
      iterable: z.array(
        z.looseObject({
          asset: z.string().optional(),
          interactions: z
            .looseObject({ viewed: z.string().optional(), touched: z.boolean().optional(), scrolled: z.boolean().optional() })
            .optional(),
        }),
      ),
    }),
  })
  .optional();

export const seededTagSchema = z.looseObject({
  text: z.string().min(1),
  asset: z.string().min(1).optional(),
  category: z.enum(TAG_CATEGORY).optional(),
  mechanism: mechanism.optional(),
});

export const seededWebsiteSchema = z.looseObject({
  url: z.string().min(1),
  name: z.string(),
  asset: z.string().min(1).optional(),
  mechanism: mechanism.optional(),
});

/** The assets, asset, format, tag and website areas (interface.md §4.1–4.2): route and client both use these. */
export const assetOperations = {
  create: operation('POST', '/assets/create', 'Seed', seedSchema),
  draft: operation('POST', '/assets/draft', 'Seed', seedSchema),
  recommended: operation('POST', '/assets/recommended', 'SeededAssetsRecommendation', recommendationSchema),
  related: operation('POST', '/assets/related', 'Assets', relatedSchema),
  search: operation('POST', '/assets/search', 'AssetsSearchWithFiltersInput', searchWithFiltersSchema),
  update: operation('POST', '/asset/update', 'Asset', assetSchema),
  reclassify: operation('POST', '/asset/reclassify', 'AssetReclassification', reclassificationSchema),
  snapshotPost: operation('POST', '/asset/:asset', 'SeededAccessor', accessorSchema),
  incrementScores: operation('POST', '/asset/:asset/scores/increment', 'SeededScoreIncrement', scoreIncrementSchema),
  updateFormatValue: operation('POST', '/format/update/value', 'Format', formatSchema),
  createTag: operation('POST', '/tags/create', 'SeededTag', seededTagSchema),
  createWebsite: operation('POST', '/websites/create', 'SeededWebsite', seededWebsiteSchema),
} as const;

/**
 * Every body the published models allow is accepted (see Accepts). Not AssetsSearchWithFiltersInput:
 * a search space that names identifiers must list them (`space.identifers.iterable`).
 */
export type PublishedAssetBodies = [
  Accepts<typeof seedSchema, W.Seed>,
  Accepts<typeof assetSchema, W.Asset>,
  Accepts<typeof formatSchema, W.Format>,
  Accepts<typeof reclassificationSchema, W.AssetReclassification>,
  Accepts<typeof scoreIncrementSchema, W.SeededScoreIncrement>,
  Accepts<typeof relatedSchema, W.Assets>,
  Accepts<typeof recommendationSchema, W.SeededAssetsRecommendation>,
  Accepts<typeof seededTagSchema, W.SeededTag>,
  Accepts<typeof seededWebsiteSchema, W.SeededWebsite>,
];

/** Every parsed body is one the assets core takes as it is (see Feeds). */
export type CoreAssetBodies = [
  Feeds<z.output<typeof seedSchema>, In.SeedInput>,
  Feeds<z.output<typeof assetSchema>, In.AssetUpdateInput>,
  Feeds<z.output<typeof formatSchema>, In.FormatUpdateInput>,
  Feeds<z.output<typeof relatedSchema>, In.RelatedInput | undefined>,
  Feeds<z.output<typeof recommendationSchema>, In.RecommendationInput | undefined>,
  Feeds<z.output<typeof searchWithFiltersSchema>, In.SearchWithFiltersInput | undefined>,
];
