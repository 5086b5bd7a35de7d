/**
 * Wire shapes of the Pieces OS interface, derived type-only from the published client's models
 * (`@pieces.app/pieces-os-client` 4.1.0), so the field names and required fields are theirs.
 *
 * The client's TS models hold `Date` objects and camelCase properties; on the wire timestamps are
 * ISO strings and a few keys are snake_case. `Jsonify` makes that translation at the type level, so
 * core and server hold exactly what travels as JSON and no runtime conversion is needed.
 */
import type * as P from '@pieces.app/pieces-os-client';

/** Keys that are snake_case on the wire wherever they occur (pieces-wire.md, Appendix A). */
interface SnakeKeys {
  base64Url: 'base64_url';
  dataUrl: 'data_url';
  sourceWindows: 'source_windows';
  workstreamEvents: 'workstream_events';
  workstreamEvent: 'workstream_event';
  workstreamSummary: 'workstream_summary';
  workstreamSummaries: 'workstream_summaries';
  identifierDescriptionPair: 'identifier_description_pair';
  assetsListRefreshed: 'assets_list_refreshed';
  workstreamPatternEngineSources: 'workstream_pattern_engine_sources';
  workstreamPatternEngineSourceWindows: 'workstream_pattern_engine_source_windows';
}

type WireKey<K> = K extends keyof SnakeKeys ? SnakeKeys[K] : K;

/** Known values first, any other string allowed. */
export type Open<E extends string> = E | (string & {});

/** A tracked event's identifier-description pairs, as they travel. */
export type IdentifierDescriptionPairs = { readonly [snakeCaseIdentifier: string]: unknown };

/**
 * Identifier-description pairs travel snake_case (`asset_format_copied`) where the published models
 * spell them camelCase; Satchel keeps pairs it does not know, and a tracked event may leave them out.
 */
type JsonObject<T> = T extends { name: P.ApplicationNameEnum } ? SelfDescribedApplication<JsonFields<T>> : JsonFields<T>;

type JsonFields<T> = 'identifierDescriptionPair' extends keyof T
  ? { [K in keyof T as K extends 'identifierDescriptionPair' ? never : WireKey<K>]: Jsonify<T[K]> } & {
      identifier_description_pair?: IdentifierDescriptionPairs;
    }
  : { [K in keyof T as WireKey<K>]: Jsonify<T[K]> };

/*
 * Applications describe themselves: Satchel records the name, platform, privacy and capabilities an
 * editor gives, also values the published enums do not list yet, so those are open in every
 * application (and only there: an anchor's platform, say, is still checked).
 */
type SelfDescribedApplication<T> = {
  [K in keyof T]: K extends 'name' | 'platform' | 'privacy' | 'capabilities' ? Widen<T[K]> : T[K];
};
type Widen<V> = V extends string ? Open<V> : V;

export type Jsonify<T> = JsonValue<T>;

type JsonValue<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer U>
    ? Jsonify<U>[]
    : T extends object
      ? JsonObject<T>
      : T;

export type GroupedTimestamp = Jsonify<P.GroupedTimestamp>;
export type Asset = Jsonify<P.Asset>;
export type Assets = Jsonify<P.Assets>;
export type FlattenedAsset = Jsonify<P.FlattenedAsset>;
export type Sensitive = Jsonify<P.Sensitive>;
export type Sensitives = Jsonify<P.Sensitives>;
export type FlattenedAssets = Jsonify<P.FlattenedAssets>;
export type ReferencedAsset = Jsonify<P.ReferencedAsset>;
/** A seeded asset as clients send it: its application may be left out or name only itself (Satchel fills in the rest from its own). */
export type SeededAsset = Omit<Jsonify<P.SeededAsset>, 'application'> & { application?: Partial<Application> };
export type Seed = Omit<Jsonify<P.Seed>, 'asset'> & { asset?: SeededAsset };
export type SeededFormat = Jsonify<P.SeededFormat>;
export type Format = Jsonify<P.Format>;
export type Formats = Jsonify<P.Formats>;
export type FlattenedFormat = Jsonify<P.FlattenedFormat>;
export type ReferencedFormat = Jsonify<P.ReferencedFormat>;
export type Classification = Jsonify<P.Classification>;
export type ClassificationSpecific = P.ClassificationSpecificEnum;
export type ClassificationGeneric = P.ClassificationGenericEnum;
export type Preview = Jsonify<P.Preview>;
export type TransferableString = Jsonify<P.TransferableString>;
export type TransferableBytes = Jsonify<P.TransferableBytes>;
export type Score = Jsonify<P.Score>;
export type SeededScoreIncrement = Jsonify<P.SeededScoreIncrement>;
export type SearchedAssets = Jsonify<P.SearchedAssets>;
export type SearchedAsset = Jsonify<P.SearchedAsset>;
export type AssetsSearchWithFiltersInput = Jsonify<P.AssetsSearchWithFiltersInput>;
export type AssetsSearchWithFiltersOutput = Jsonify<P.AssetsSearchWithFiltersOutput>;
export type AssetFilter = Jsonify<P.AssetFilter>;
export type AssetFilters = Jsonify<P.AssetFilters>;
export type PseudoAssets = Jsonify<P.PseudoAssets>;
export type SeededAssetsRecommendation = Jsonify<P.SeededAssetsRecommendation>;
export type AssetReclassification = Jsonify<P.AssetReclassification>;
export type ExportedAsset = Jsonify<P.ExportedAsset>;
/** An activity holds the tracked event as it was received. */
export type Activity = Omit<Jsonify<P.Activity>, 'event'> & { event: SeededConnectorTracking };
export type Activities = Omit<Jsonify<P.Activities>, 'iterable'> & { iterable: Activity[] };
export type Tag = Jsonify<P.Tag>;
export type Tags = Jsonify<P.Tags>;
export type SeededTag = Jsonify<P.SeededTag>;
export type Website = Jsonify<P.Website>;
export type Websites = Jsonify<P.Websites>;
export type SeededWebsite = Jsonify<P.SeededWebsite>;
export type StreamedIdentifiers = Jsonify<P.StreamedIdentifiers>;
export type StreamedIdentifier = Jsonify<P.StreamedIdentifier>;
export type Application = Jsonify<P.Application>;
export type Applications = Jsonify<P.Applications>;
export type DetectedExternalApplication = Jsonify<P.DetectedExternalApplication>;
export type DetectedExternalApplications = Jsonify<P.DetectedExternalApplications>;
export type Session = Jsonify<P.Session>;
export type Context = Jsonify<P.Context>;
export type QGPTQuestionInput = Jsonify<P.QGPTQuestionInput>;
export type QGPTQuestionOutput = Jsonify<P.QGPTQuestionOutput>;
export type QGPTRelevanceInput = Jsonify<P.QGPTRelevanceInput>;
export type QGPTRelevanceOutput = Jsonify<P.QGPTRelevanceOutput>;
export type SeededConnectorConnection = Jsonify<P.SeededConnectorConnection>;
export type SeededConnectorAsset = Jsonify<P.SeededConnectorAsset>;
export type SeededConnectorCreation = Jsonify<P.SeededConnectorCreation>;
type JsonRecord = { readonly [key: string]: unknown };
/**
 * A tracked event as Satchel takes it: the events it acts on (an asset or format used, an
 * interaction, a keystroke) typed as far as it reads them, the others recorded whole. Every body
 * the published SeededConnectorTracking allows fits (checked where the operation is declared).
 * `conversation_message` is snake_case here only (it is camelCase in SeededScoreIncrement).
 */
export interface SeededConnectorTracking {
  readonly asset?: { readonly asset: { readonly id: string }; readonly identifier_description_pair?: IdentifierDescriptionPairs };
  readonly format?: {
    /** A format names its asset by `reference.asset`; clients send only the part of the format they know. */
    readonly format: { readonly id: string; readonly reference?: { readonly asset?: string } };
    readonly identifier_description_pair?: IdentifierDescriptionPairs;
  };
  readonly interaction?: { readonly description: string };
  readonly keyboard?: { readonly description: string; readonly shortcut: readonly number[] };
  readonly session?: JsonRecord;
  readonly assets?: JsonRecord;
  readonly ml?: JsonRecord;
  readonly adoption?: JsonRecord;
  readonly conversation?: JsonRecord;
  readonly conversation_message?: JsonRecord;
  readonly workstream_summary?: JsonRecord;
}
export type Suggestion = Jsonify<P.Suggestion>;
export type Reaction = Jsonify<P.Reaction>;
export type Conversation = Jsonify<P.Conversation>;
export type Conversations = Jsonify<P.Conversations>;
export type FlattenedConversations = Jsonify<P.FlattenedConversations>;
export type SeededConversation = Jsonify<P.SeededConversation>;
export type ConversationMessage = Jsonify<P.ConversationMessage>;
export type ConversationMessages = Jsonify<P.ConversationMessages>;
export type SeededConversationMessage = Jsonify<P.SeededConversationMessage>;
export type ConversationSummarizeInput = Jsonify<P.ConversationSummarizeInput>;
export type ConversationSummarizeOutput = Jsonify<P.ConversationSummarizeOutput>;
export type Annotation = Jsonify<P.Annotation>;
export type Annotations = Jsonify<P.Annotations>;
export type Model = Jsonify<P.Model>;
export type Models = Jsonify<P.Models>;
export type SeededModel = Jsonify<P.SeededModel>;
export type ModelDeleteCacheInput = Jsonify<P.ModelDeleteCacheInput>;
export type ModelDeleteCacheOutput = Jsonify<P.ModelDeleteCacheOutput>;
export type ModelDownloadProgress = Jsonify<P.ModelDownloadProgress>;
export type ModelDownloadProgressStatus = P.ModelDownloadProgressStatusEnum;
export type FlattenedConversationMessage = Jsonify<P.FlattenedConversationMessage>;
export type SeededAnnotation = Jsonify<P.SeededAnnotation>;
export type Anchor = Jsonify<P.Anchor>;
export type Anchors = Jsonify<P.Anchors>;
export type SeededAnchor = Jsonify<P.SeededAnchor>;
export type Range = Jsonify<P.Range>;
export type Ranges = Jsonify<P.Ranges>;
export type SeededRange = Jsonify<P.SeededRange>;
/** The model a summary names, kept as the client sent it (only its id is required). */
export type SummaryModel = { readonly id: string } & { readonly [field: string]: unknown };
export type WorkstreamSummary = Omit<Jsonify<P.WorkstreamSummary>, 'model'> & { model: SummaryModel };
export type WorkstreamSummaries = Omit<Jsonify<P.WorkstreamSummaries>, 'iterable'> & { iterable: WorkstreamSummary[] };
export type SeededWorkstreamSummary = Jsonify<P.SeededWorkstreamSummary>;

export type UserProfile = Jsonify<P.UserProfile>;
export type ReturnedUserProfile = Jsonify<P.ReturnedUserProfile>;
