/**
 * zod schemas of the request bodies of the assets area: the fields Satchel reads are checked for
 * type (and enum values where a wrong one would be stored); unknown keys pass through untouched,
 * as the client may send fields Satchel ignores.
 */
import { z } from 'zod';
import { mechanism, seededScoreFields, transferableBytesFields, transferableStringFields } from './shared.ts';
import type * as W from '../core/piecesTypes.ts';
import type * as In from '../core/assets/inputs.ts';
import { lazy, get, json, none, post, text, type Accepts, type Feeds } from './operation.ts';

const GENERIC = ['UNKNOWN', 'CODE', 'TEXT', 'IMAGE', 'VIDEO', 'EXTERNAL_RESOURCE_REFERENCE', 'FILE'] as const;
const TAG_CATEGORY = ['UNKNOWN', 'HANDLE', 'EMAIL'] as const;

const transferableString = lazy(() => z.looseObject(transferableStringFields()));
const transferableBytes = lazy(() => z.looseObject(transferableBytesFields()));
const fragment = lazy(() => z.looseObject({
  string: transferableString().optional(),
  bytes: transferableBytes().optional(),
  metadata: z.looseObject({ ext: z.string().optional() }).optional(),
}));
const file = lazy(() => z.looseObject({
  string: transferableString().optional(),
  bytes: transferableBytes().optional(),
  metadata: z.looseObject({ name: z.string().optional(), ext: z.string().optional(), size: z.number().optional() }).optional(),
}));
const classification = lazy(() => z.looseObject({ generic: z.enum(GENERIC).optional(), specific: z.string().optional() }));
const timestamp = lazy(() => z.looseObject({ value: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'not an ISO date') }));
const reference = lazy(() => z.looseObject({ id: z.string().min(1) }));

export const seedSchema = lazy(() => z.looseObject({
  type: z.enum(['UNKNOWN', 'SEEDED_FORMAT', 'SEEDED_ASSET']).optional(),
  asset: z
    .looseObject({
      application: z.looseObject({ id: z.string().optional(), name: z.string().optional() }).optional(),
      format: z.looseObject({ fragment: fragment().optional(), file: file().optional(), classification: classification().optional() }),
      metadata: z
        .looseObject({
          name: z.string().optional(),
          mechanism: mechanism().optional(),
          tags: z.array(z.looseObject({ text: z.string().min(1), category: z.enum(TAG_CATEGORY).optional() })).optional(),
          websites: z.array(z.looseObject({ url: z.string().min(1), name: z.string() })).optional(),
        })
        .optional(),
      pseudo: z.boolean().optional(),
      discovered: z.boolean().optional(),
      demo: z.boolean().optional(),
    })
    .optional(),
}));

const formatInput = lazy(() => z.looseObject({
  id: z.string().min(1),
  fragment: fragment().optional(),
  file: file().optional(),
  classification: classification().optional(),
}));

const score = lazy(() => z.looseObject({
  manual: z.number().optional(),
  automatic: z.number().optional(),
  priority: z.number().optional(),
  reuse: z.number().optional(),
  update: z.number().optional(),
  reference: z.number().optional(),
  searched: z.number().optional(),
}));

export const assetSchema = lazy(() => z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  mechanism: mechanism().optional(),
  formats: z.looseObject({ iterable: z.array(formatInput()) }).optional(),
  score: score().optional(),
  favorited: z.boolean().optional(),
  curated: z.boolean().optional(),
  discovered: z.boolean().optional(),
  demo: z.boolean().optional(),
  pseudo: z.boolean().optional(),
  interacted: timestamp().optional(),
}));

export const formatSchema = lazy(() => formatInput());

export const reclassificationSchema = lazy(() => z.looseObject({ ext: z.string().min(1), asset: reference() }));

const seededScore = lazy(() => z.looseObject(seededScoreFields()));
export const scoreIncrementSchema = lazy(() => z.looseObject({ asset: seededScore().optional(), assets: seededScore().optional() }).optional());

export const accessorSchema = lazy(() => z.looseObject({ os: z.string().optional(), share: z.string().optional() }).optional());

const flattenedAssets = lazy(() => z.looseObject({ iterable: z.array(reference()) }));
const filterTimestamp = lazy(() => z.looseObject({ from: timestamp().optional(), to: timestamp().optional(), between: z.boolean().optional() }));

const assetFilter = lazy(() => z.looseObject({
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
  created: filterTimestamp().optional(),
  updated: filterTimestamp().optional(),
  get operations() {
    return assetFilters().optional();
  },
}));
// Annotated (it is recursive) with the core's filter type, so the two cannot drift apart.
const assetFilters: () => z.ZodType<In.AssetFiltersInput, In.AssetFiltersInput> = lazy(() => z.looseObject({
  iterable: z.array(assetFilter()),
  type: z.enum(['UNKNOWN', 'AND', 'OR']).optional(),
}));

// A plain (stripping) object: the search reads these four fields and nothing else, so a body's
// other keys are dropped where it is checked (on the JSON worker for a large one) and never cross.
export const searchWithFiltersSchema = lazy(() => z
  .object({
    query: z.string().optional(),
    casing: z.boolean().optional(),
    // `identifers` is the wire spelling (a typo in the interface); the corrected one is accepted too.
    space: z.looseObject({ identifers: flattenedAssets().optional(), identifiers: flattenedAssets().optional() }).optional(),
    filters: assetFilters().optional(),
  })
  .optional());

const assetsInput = lazy(() => z.looseObject({
  iterable: z.array(z.looseObject({ id: z.string().optional(), formats: z.looseObject({ iterable: z.array(z.looseObject({})) }).optional() })),
}));
export const relatedSchema = lazy(() => assetsInput().optional());

export const recommendationSchema = lazy(() => z
  .looseObject({
    assets: assetsInput(),
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
  .optional());

export const seededTagSchema = lazy(() => z.looseObject({
  text: z.string().min(1),
  asset: z.string().min(1).optional(),
  category: z.enum(TAG_CATEGORY).optional(),
  mechanism: mechanism().optional(),
}));

export const seededWebsiteSchema = lazy(() => z.looseObject({
  url: z.string().min(1),
  name: z.string(),
  asset: z.string().min(1).optional(),
  mechanism: mechanism().optional(),
}));

/**
 * The assets, asset, format, tag and website areas (interface.md §4.1–4.2): route and client both
 * use these. Where the interface is reached by two spellings (GET and POST of related and
 * recommended, `/assets/{id}` and `/asset/{id}`, `/format/{id}` and `/formats/{id}`), each is declared.
 */
export const assetOperations = {
  list: get('/assets', json<W.Assets>()),
  /** ActivitiesApi.activitiesSnapshot: every activity Satchel keeps (its `transferables`/`pseudo` change nothing here). */
  allActivities: get('/activities', json<W.Activities>()),
  create: post('/assets/create', json<W.Asset>(), 'Seed', seedSchema),
  draft: post('/assets/draft', json<W.Seed>(), 'Seed', seedSchema),
  recommendedGet: get('/assets/recommended', json<W.Assets>(), 'SeededAssetsRecommendation', recommendationSchema),
  recommended: post('/assets/recommended', json<W.Assets>(), 'SeededAssetsRecommendation', recommendationSchema),
  relatedGet: get('/assets/related', json<W.Assets>(), 'Assets', relatedSchema),
  related: post('/assets/related', json<W.Assets>(), 'Assets', relatedSchema),
  identifiers: get('/assets/identifiers', json<W.FlattenedAssets>()),
  pseudo: get('/assets/pseudo', json<W.PseudoAssets>()),
  searchGet: get('/assets/search', json<W.SearchedAssets>()),
  search: post('/assets/search', json<W.AssetsSearchWithFiltersOutput>(), 'AssetsSearchWithFiltersInput', searchWithFiltersSchema),
  streamIdentifiers: get('/assets/stream/identifiers', json<W.StreamedIdentifiers>()),
  streamTransferables: get('/assets/stream/transferables', json<W.Assets>()),
  stream: get('/assets/stream', json<W.Assets>()),
  snapshotAlias: get('/assets/:asset', json<W.Asset>()),
  formatsAlias: get('/assets/:asset/formats', json<W.Formats>()),
  delete: post('/assets/:asset/delete', text),

  update: post('/asset/update', json<W.Asset>(), 'Asset', assetSchema),
  reclassify: post('/asset/reclassify', json<W.Asset>(), 'AssetReclassification', reclassificationSchema),
  snapshot: get('/asset/:asset', json<W.Asset>()),
  snapshotPost: post('/asset/:asset', json<W.Asset>(), 'SeededAccessor', accessorSchema),
  formats: get('/asset/:asset/formats', json<W.Formats>()),
  activities: get('/asset/:asset/activities', json<W.Activities>()),
  conversations: get('/asset/:asset/conversations', json<W.Conversations>()),
  export: get('/asset/:asset/export', json<W.ExportedAsset>()),
  incrementScores: post('/asset/:asset/scores/increment', none, 'SeededScoreIncrement', scoreIncrementSchema),
  associateTag: post('/asset/:asset/tags/associate/:tag', none),
  disassociateTag: post('/asset/:asset/tags/disassociate/:tag', none),
  associateWebsite: post('/asset/:asset/websites/associate/:website', none),
  disassociateWebsite: post('/asset/:asset/websites/disassociate/:website', none),
  associateWorkstreamSummary: post('/asset/:asset/workstream_summaries/associate/:workstream_summary', none),
  disassociateWorkstreamSummary: post('/asset/:asset/workstream_summaries/disassociate/:workstream_summary', none),

  allFormats: get('/formats', json<W.Formats>()),
  updateFormatValue: post('/format/update/value', json<W.Format>(), 'Format', formatSchema),
  format: get('/format/:format', json<W.Format>()),
  formatAlias: get('/formats/:format', json<W.Format>()),

  tags: get('/tags', json<W.Tags>()),
  createTag: post('/tags/create', json<W.Tag>(), 'SeededTag', seededTagSchema),
  tag: get('/tag/:tag', json<W.Tag>()),
  tagAssociateAsset: post('/tag/:tag/assets/associate/:asset', none),
  tagDisassociateAsset: post('/tag/:tag/assets/disassociate/:asset', none),
  websites: get('/websites', json<W.Websites>()),
  createWebsite: post('/websites/create', json<W.Website>(), 'SeededWebsite', seededWebsiteSchema),
  website: get('/website/:website', json<W.Website>()),
  websiteAssociateAsset: post('/website/:website/assets/associate/:asset', none),
  websiteDisassociateAsset: post('/website/:website/assets/disassociate/:asset', none),
} as const;

/**
 * Every body the published models allow is accepted (see Accepts). Not AssetsSearchWithFiltersInput:
 * a search space that names identifiers must list them (`space.identifers.iterable`).
 */
export type PublishedAssetBodies = [
  Accepts<ReturnType<typeof seedSchema>, W.Seed>,
  Accepts<ReturnType<typeof assetSchema>, W.Asset>,
  Accepts<ReturnType<typeof formatSchema>, W.Format>,
  Accepts<ReturnType<typeof reclassificationSchema>, W.AssetReclassification>,
  Accepts<ReturnType<typeof scoreIncrementSchema>, W.SeededScoreIncrement>,
  Accepts<ReturnType<typeof relatedSchema>, W.Assets>,
  Accepts<ReturnType<typeof recommendationSchema>, W.SeededAssetsRecommendation>,
  Accepts<ReturnType<typeof seededTagSchema>, W.SeededTag>,
  Accepts<ReturnType<typeof seededWebsiteSchema>, W.SeededWebsite>,
];

/** Every parsed body is one the assets core takes as it is (see Feeds). */
export type CoreAssetBodies = [
  Feeds<z.output<ReturnType<typeof seedSchema>>, In.SeedInput>,
  Feeds<z.output<ReturnType<typeof assetSchema>>, In.AssetUpdateInput>,
  Feeds<z.output<ReturnType<typeof formatSchema>>, In.FormatUpdateInput>,
  Feeds<z.output<ReturnType<typeof relatedSchema>>, In.RelatedInput | undefined>,
  Feeds<z.output<ReturnType<typeof recommendationSchema>>, In.RecommendationInput | undefined>,
  Feeds<z.output<ReturnType<typeof searchWithFiltersSchema>>, In.SearchWithFiltersInput | undefined>,
];
