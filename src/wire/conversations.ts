/**
 * Request bodies of the conversations area, validated at the edge. Only the fields core reads are
 * checked (and kept); unknown keys from newer clients are ignored, never an error.
 */
import { z } from 'zod';
import { mechanism, seededScoreFields, transferableBytesFields, transferableStringFields } from './shared.ts';
import type * as W from '../core/piecesTypes.ts';
import { lazy, get, json, none, post, type Accepts, type Requiring } from './operation.ts';

const id = lazy(() => z.string().min(1, 'must be a non-empty id'));

const timestamp = lazy(() => z.object({
  value: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO-8601 date'),
  readable: z.string().optional(),
}));

const reference = lazy(() => z.object({ id: id() }));

export const idList = lazy(() => z.object({ iterable: z.array(reference()) }));

const transferableString = lazy(() => z.object(transferableStringFields()));
const transferableBytes = lazy(() => z.object(transferableBytesFields()));

const fragment = lazy(() => z.object({ string: transferableString().optional(), bytes: transferableBytes().optional() }));

const role = lazy(() => z.enum(['UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT']));
const conversationType = lazy(() => z.enum(['UNKNOWN', 'COPILOT']));
export const annotationType = lazy(() => z.enum(['UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT']));
const anchorType = lazy(() => z.enum(['UNKNOWN', 'FILE', 'DIRECTORY']));
const sentiment = lazy(() => z.enum(['UNKNOWN', 'LIKE', 'DISLIKE', 'REPORT']));

const messageFields = lazy(() => ({
  role: role(),
  fragment: fragment(),
  created: timestamp().optional(),
  sentiment: sentiment().optional(),
}));

export const seededMessage = lazy(() => z.object({ ...messageFields(), conversation: reference() }));

const seededAnnotation = lazy(() => z.object({
  type: annotationType(),
  text: z.string(),
  mechanism: mechanism().optional(),
  favorited: z.boolean().optional(),
  pseudo: z.boolean().optional(),
  asset: id().optional(),
  conversation: id().optional(),
  anchor: id().optional(),
  workstreamSummary: id().optional(),
}));

export const seededAnchor = lazy(() => z.object({
  type: anchorType(),
  fullpath: z.string().min(1),
  name: z.string().optional(),
  watch: z.boolean().optional(),
  platform: z.enum(['UNKNOWN', 'WEB', 'MACOS', 'LINUX', 'WINDOWS', 'FUCHSIA', 'IOS', 'ANDROID']).optional(),
  asset: id().optional(),
  conversation: id().optional(),
  annotations: z.array(seededAnnotation()).optional(),
}));

export const seededConversation = lazy(() => z.object({
  type: conversationType(),
  name: z.string().optional(),
  favorited: z.boolean().optional(),
  demo: z.boolean().optional(),
  model: reference().optional(),
  messages: z.array(z.object(messageFields())).optional(),
  annotations: z.array(seededAnnotation().omit({ conversation: true })).optional(),
  anchors: z.array(seededAnchor().omit({ conversation: true })).optional(),
  assets: idList().optional(),
  websites: idList().optional(),
}));

export const conversationUpdate = lazy(() => z.object({
  id: id(),
  name: z.string().optional(),
  type: conversationType().optional(),
  favorited: z.boolean().optional(),
  demo: z.boolean().optional(),
}));

const seededScore = lazy(() => z.object(seededScoreFields()));

export const scoreIncrement = lazy(() => z.object({ conversation: seededScore().optional(), conversations: seededScore().optional() }).optional());

export const summarizeInput = lazy(() => z.object({ messages: idList().optional() }).optional());

export const seededRange = lazy(() => z.object({
  from: timestamp().optional(),
  to: timestamp().optional(),
  between: z.boolean().optional(),
  summary: reference().optional(),
  conversation: z.object({ reference: reference() }).optional(),
}));

export const seededWorkstreamSummary = lazy(() => z.object({
  name: z.string(),
  model: z.looseObject({ id: id() }),
  favorited: z.boolean().optional(),
  assets: idList().optional(),
  conversations: idList().optional(),
  anchors: idList().optional(),
  ranges: idList().optional(),
  websites: idList().optional(),
}));

/**
 * The conversations area (interface.md §4.5) with its messages and the records conversations
 * associate with: route and client both use these. interface.md names the anchor and asset
 * disassociations `…/delete/{id}` while the client sends `…/disassociate/{id}`: both are declared.
 */
export const conversationOperations = {
  list: get('/conversations', json<W.Conversations>()),
  create: post('/conversations/create', json<W.Conversation>(), 'SeededConversation', seededConversation),
  identifiers: get('/conversations/identifiers', json<W.FlattenedConversations>()),
  streamIdentifiers: get('/conversations/stream/identifiers', json<W.StreamedIdentifiers>()),
  delete: post('/conversations/:conversation/delete', none),
  update: post('/conversation/update', json<W.Conversation>(), 'Conversation', conversationUpdate),
  get: get('/conversation/:conversation', json<W.Conversation>()),
  messages: get('/conversation/:conversation/messages', json<W.ConversationMessages>()),
  rename: post('/conversation/:conversation/rename', json<W.Conversation>()),
  summarize: post('/conversation/:conversation/summarize', json<W.ConversationSummarizeOutput>(), 'ConversationSummarizeInput', summarizeInput),
  incrementScores: post('/conversation/:conversation/scores/increment', none, 'SeededScoreIncrement', scoreIncrement),

  associateAnchor: post('/conversation/:conversation/anchors/associate/:anchor', none),
  disassociateAnchor: post('/conversation/:conversation/anchors/disassociate/:anchor', none),
  deleteAnchorLink: post('/conversation/:conversation/anchors/delete/:anchor', none),
  associateAsset: post('/conversation/:conversation/assets/associate/:asset', none),
  disassociateAsset: post('/conversation/:conversation/assets/disassociate/:asset', none),
  deleteAssetLink: post('/conversation/:conversation/assets/delete/:asset', none),
  associateWebsite: post('/conversation/:conversation/websites/associate/:website', none),
  disassociateWebsite: post('/conversation/:conversation/websites/disassociate/:website', none),
  associateWorkstreamSummary: post('/conversation/:conversation/workstream_summaries/associate/:workstream_summary', none),
  disassociateWorkstreamSummary: post('/conversation/:conversation/workstream_summaries/disassociate/:workstream_summary', none),
  associateGroundingMessage: post('/conversation/:conversation/grounding/messages/associate/:message', none),
  disassociateGroundingMessage: post('/conversation/:conversation/grounding/messages/disassociate/:message', none),
  associateGroundingRange: post('/conversation/:conversation/grounding/temporal_range/workstreams/associate/:range', none),
  disassociateGroundingRange: post('/conversation/:conversation/grounding/temporal_range/workstreams/disassociate/:range', none),

  allMessages: get('/messages', json<W.ConversationMessages>()),
  createMessage: post('/messages/create', json<W.ConversationMessage>(), 'SeededConversationMessage', seededMessage),
  deleteMessage: post('/messages/:message/delete', none),
  message: get('/message/:message', json<W.ConversationMessage>()),

  anchorStreamIdentifiers: get('/anchors/stream/identifiers', json<W.StreamedIdentifiers>()),
  rangeStreamIdentifiers: get('/ranges/stream/identifiers', json<W.StreamedIdentifiers>()),
  annotations: get('/annotations', json<W.Annotations>()),
  annotation: get('/annotation/:annotation', json<W.Annotation>()),
  deleteAnnotation: post('/annotations/:annotation/delete', none),
  anchors: get('/anchors', json<W.Anchors>()),
  createAnchor: post('/anchors/create', json<W.Anchor>(), 'SeededAnchor', seededAnchor),
  anchor: get('/anchor/:anchor', json<W.Anchor>()),
  deleteAnchor: post('/anchors/:anchor/delete', none),
  ranges: get('/ranges', json<W.Ranges>()),
  createRange: post('/ranges/create', json<W.Range>(), 'SeededRange', seededRange),
  range: get('/range/:range', json<W.Range>()),
  deleteRange: post('/ranges/:range/delete', none),
  workstreamSummaries: get('/workstream_summaries', json<W.WorkstreamSummaries>()),
  createWorkstreamSummary: post('/workstream_summaries/create', json<W.WorkstreamSummary>(), 'SeededWorkstreamSummary', seededWorkstreamSummary),
  workstreamSummary: get('/workstream_summary/:workstream_summary', json<W.WorkstreamSummary>()),
  deleteWorkstreamSummary: post('/workstream_summaries/:workstream_summary/delete', none),
} as const;

/** An asset list, when given, lists its assets (the published model marks `iterable` optional). */
type WithAssetList<T extends { assets?: { iterable?: unknown } }> = Omit<T, 'assets'> & {
  assets?: Requiring<NonNullable<T['assets']>, 'iterable'>;
};

/**
 * Every body the published models allow is accepted (see Accepts), except where Satchel needs more:
 * a message names its conversation, and an asset list lists its assets.
 */
export type PublishedConversationBodies = [
  Accepts<ReturnType<typeof seededConversation>, WithAssetList<W.SeededConversation>>,
  Accepts<ReturnType<typeof conversationUpdate>, W.Conversation>,
  Accepts<ReturnType<typeof summarizeInput>, W.ConversationSummarizeInput>,
  Accepts<ReturnType<typeof scoreIncrement>, W.SeededScoreIncrement>,
  Accepts<ReturnType<typeof seededMessage>, Requiring<W.SeededConversationMessage, 'conversation'>>,
  Accepts<ReturnType<typeof seededAnchor>, W.SeededAnchor>,
  Accepts<ReturnType<typeof seededRange>, W.SeededRange>,
  Accepts<ReturnType<typeof seededWorkstreamSummary>, WithAssetList<W.SeededWorkstreamSummary>>,
];
