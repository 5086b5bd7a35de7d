/**
 * Request bodies of the conversations area, validated at the edge. Only the fields core reads are
 * checked (and kept); unknown keys from newer clients are ignored, never an error.
 */
import { z } from 'zod';
import { mechanism, seededScoreFields, transferableBytesFields, transferableStringFields } from './shared.ts';
import type * as W from '../core/wire.ts';
import { operation, type Accepts, type Requiring } from './operation.ts';

const id = z.string().min(1, 'must be a non-empty id');

const timestamp = z.object({
  value: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO-8601 date'),
  readable: z.string().optional(),
});

const reference = z.object({ id });

export const idList = z.object({ iterable: z.array(reference) });

const transferableString = z.object(transferableStringFields);
const transferableBytes = z.object(transferableBytesFields);

const fragment = z.object({ string: transferableString.optional(), bytes: transferableBytes.optional() });

const role = z.enum(['UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT']);
const conversationType = z.enum(['UNKNOWN', 'COPILOT']);
export const annotationType = z.enum(['UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT']);
const anchorType = z.enum(['UNKNOWN', 'FILE', 'DIRECTORY']);
const sentiment = z.enum(['UNKNOWN', 'LIKE', 'DISLIKE', 'REPORT']);

const messageFields = {
  role,
  fragment,
  created: timestamp.optional(),
  sentiment: sentiment.optional(),
};

export const seededMessage = z.object({ ...messageFields, conversation: reference });

const seededAnnotation = z.object({
  type: annotationType,
  text: z.string(),
  mechanism: mechanism.optional(),
  favorited: z.boolean().optional(),
  pseudo: z.boolean().optional(),
  asset: id.optional(),
  conversation: id.optional(),
  anchor: id.optional(),
  workstreamSummary: id.optional(),
});

export const seededAnchor = z.object({
  type: anchorType,
  fullpath: z.string().min(1),
  name: z.string().optional(),
  watch: z.boolean().optional(),
  platform: z.enum(['UNKNOWN', 'WEB', 'MACOS', 'LINUX', 'WINDOWS', 'FUCHSIA', 'IOS', 'ANDROID']).optional(),
  asset: id.optional(),
  conversation: id.optional(),
  annotations: z.array(seededAnnotation).optional(),
});

export const seededConversation = z.object({
  type: conversationType,
  name: z.string().optional(),
  favorited: z.boolean().optional(),
  demo: z.boolean().optional(),
  model: reference.optional(),
  messages: z.array(z.object(messageFields)).optional(),
  annotations: z.array(seededAnnotation.omit({ conversation: true })).optional(),
  anchors: z.array(seededAnchor.omit({ conversation: true })).optional(),
  assets: idList.optional(),
  websites: idList.optional(),
});

export const conversationUpdate = z.object({
  id,
  name: z.string().optional(),
  type: conversationType.optional(),
  favorited: z.boolean().optional(),
  demo: z.boolean().optional(),
});

const seededScore = z.object(seededScoreFields);

export const scoreIncrement = z.object({ conversation: seededScore.optional(), conversations: seededScore.optional() }).optional();

export const summarizeInput = z.object({ messages: idList.optional() }).optional();

export const seededRange = z.object({
  from: timestamp.optional(),
  to: timestamp.optional(),
  between: z.boolean().optional(),
  summary: reference.optional(),
  conversation: z.object({ reference }).optional(),
});

export const seededWorkstreamSummary = z.object({
  name: z.string(),
  model: z.looseObject({ id }),
  favorited: z.boolean().optional(),
  assets: idList.optional(),
  conversations: idList.optional(),
  anchors: idList.optional(),
  ranges: idList.optional(),
  websites: idList.optional(),
});

/** The conversations area (interface.md §4.5): route and client both use these. */
export const conversationOperations = {
  create: operation('POST', '/conversations/create', 'SeededConversation', seededConversation),
  update: operation('POST', '/conversation/update', 'Conversation', conversationUpdate),
  summarize: operation('POST', '/conversation/:conversation/summarize', 'ConversationSummarizeInput', summarizeInput),
  incrementScores: operation('POST', '/conversation/:conversation/scores/increment', 'SeededScoreIncrement', scoreIncrement),
  createMessage: operation('POST', '/messages/create', 'SeededConversationMessage', seededMessage),
  createAnchor: operation('POST', '/anchors/create', 'SeededAnchor', seededAnchor),
  createRange: operation('POST', '/ranges/create', 'SeededRange', seededRange),
  createWorkstreamSummary: operation('POST', '/workstream_summaries/create', 'SeededWorkstreamSummary', seededWorkstreamSummary),
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
  Accepts<typeof seededConversation, WithAssetList<W.SeededConversation>>,
  Accepts<typeof conversationUpdate, W.Conversation>,
  Accepts<typeof summarizeInput, W.ConversationSummarizeInput>,
  Accepts<typeof scoreIncrement, W.SeededScoreIncrement>,
  Accepts<typeof seededMessage, Requiring<W.SeededConversationMessage, 'conversation'>>,
  Accepts<typeof seededAnchor, W.SeededAnchor>,
  Accepts<typeof seededRange, W.SeededRange>,
  Accepts<typeof seededWorkstreamSummary, WithAssetList<W.SeededWorkstreamSummary>>,
];
