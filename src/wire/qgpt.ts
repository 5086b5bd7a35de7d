/**
 * The copilot WebSocket's client frame (`/qgpt/stream`, QGPTStreamInput): a question, a stop or a
 * reset. Stricter than the published model in one place: relevance assets, when given, list them.
 */
import { z } from 'zod';
import type * as W from '../core/piecesTypes.ts';
import { lazy, json, post, socket, type Accepts } from './operation.ts';

const ids = lazy(() => z.looseObject({ iterable: z.array(z.looseObject({ id: z.string() })) }));

/** Snippets a client gives as context: RelevantQGPTSeed's `asset` (a ReferencedAsset) or `seed` (its text, as the example app sends it). */
const seedText = lazy(() => z.looseObject({ asset: z.looseObject({ format: z.looseObject({ fragment: z.looseObject({ string: z.looseObject({ raw: z.string().nullish() }).nullish() }).nullish() }).nullish() }).nullish() }));
const relevantSeeds = lazy(() => z.looseObject({
  iterable: z.array(z.looseObject({ asset: z.looseObject({ id: z.string() }).nullish(), seed: seedText().nullish() })),
}));

export const qgptStreamInput = lazy(() => z.looseObject({
  conversation: z.string().min(1).nullish(),
  request: z.string().nullish(),
  stop: z.boolean().nullish(),
  reset: z.boolean().nullish(),
  relevance: z.looseObject({ query: z.string().nullish(), assets: ids().nullish(), model: z.string().nullish() }).nullish(),
  question: z.looseObject({ query: z.string().nullish(), model: z.string().nullish(), relevant: relevantSeeds().nullish() }).nullish(),
}));

/** The copilot socket: QGPTStreamInput frames in, QGPTStreamOutput frames out (server/routes/qgpt.ts). */
export const qgptSockets = {
  stream: socket<unknown>()('/qgpt/stream'),
} as const;

/**
 * QGPTQuestionInput (`POST /qgpt/question`): the query, the snippets given as context and the model
 * named. `conversation` is Satchel's: the conversation to continue, as the stream's frame carries it.
 */
export const qgptQuestionInput = lazy(() => z.looseObject({
  query: z.string(),
  relevant: relevantSeeds().nullish(),
  model: z.string().nullish(),
  application: z.string().nullish(),
  conversation: z.string().min(1).nullish(),
}));

/**
 * QGPTRelevanceInput (`POST /qgpt/relevance`): the query to find snippets for; with
 * `options.question` the question is answered too, with those snippets as context.
 */
export const qgptRelevanceInput = lazy(() => z.looseObject({
  query: z.string(),
  model: z.string().nullish(),
  application: z.string().nullish(),
  options: z.looseObject({ question: z.boolean().nullish(), database: z.boolean().nullish() }).nullish(),
}));

/** The non-streaming copilot (the copilot SDK, the Pieces example app, the vanilla copilot example). */
export const qgptOperations = {
  question: post('/qgpt/question', json<W.QGPTQuestionOutput>(), 'QGPTQuestionInput', qgptQuestionInput),
  relevance: post('/qgpt/relevance', json<W.QGPTRelevanceOutput>(), 'QGPTRelevanceInput', qgptRelevanceInput),
} as const;

/** The snippets a question's RelevantQGPTSeeds give as context: assets by id, seeds by their text. */
export function relevantContext(relevant: z.output<ReturnType<typeof relevantSeeds>> | null | undefined): { assets: string[]; snippets: string[] } {
  const seeds = relevant?.iterable ?? [];
  return {
    assets: seeds.flatMap((seed) => (seed.asset ? [seed.asset.id] : [])),
    snippets: seeds.flatMap((seed) => seed.seed?.asset?.format?.fragment?.string?.raw ?? []),
  };
}

/** The answer as both the stream's frame and `/qgpt/question` carry it (QGPTQuestionOutput). */
export function questionOutput(text: string): W.QGPTQuestionOutput {
  return { answers: { iterable: [{ score: 1, text }] } };
}

/** Every body the published models allow is accepted (see Accepts). */
export type PublishedQgptBodies = [Accepts<ReturnType<typeof qgptQuestionInput>, W.QGPTQuestionInput>, Accepts<ReturnType<typeof qgptRelevanceInput>, W.QGPTRelevanceInput>];
