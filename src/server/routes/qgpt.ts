/**
 * `POST /qgpt/question` answers the same question in one reply (below).
 *
 * `/qgpt/stream`: the copilot WebSocket of the Pieces CLI (`pieces ask`) and the Python SDK. Each
 * client frame is a QGPTStreamInput; the reply is an IN-PROGRESS frame carrying the answer, then a
 * COMPLETED frame (the clients append the text of every frame, so it is sent once). A `stop` frame
 * cancels the question being answered. Failures are FAILED frames with the reason.
 *
 * One socket holds at most MAX_QUESTIONS_IN_FLIGHT questions being asked or answered; more are
 * refused (FAILED, 429) rather than queued, so a client that pipelines thousands of questions gets
 * refusals instead of holding the host (3,000 on one socket stalled health for 6.9 s).
 */
import type { z } from 'zod';
import type { RouteModule } from './deps.ts';
import { qgptOperations as op, qgptSockets, qgptStreamInput as streamInput, questionOutput, relevantContext } from '../../wire/qgpt.ts';
import { input as body, json, parse } from '../http.ts';
import { route } from './deps.ts';
import { whenClientLeaves } from '../ndjson.ts';
import { withSlot } from '../searchSlots.ts';
import { relevantSeeds } from './qgptRelevance.ts';
import type * as W from '../../core/piecesTypes.ts';
import { describeError } from '../errors.ts';
import { newId } from '../../core/time.ts';

/**
 * A new conversation is announced on the conversations stream, and the Python SDK names the chat
 * of a reply from the cache that stream fills (it fails with "Conversation not found" until its
 * worker has fetched it). A model takes longer than that; an instant reply (no model loaded, a
 * very short answer) waits this long after the question so the client's cache has caught up.
 * The announcement already goes out before the answer (when the conversation is stored), and
 * waiting for the client's GET of it is not enough either: the reply overtook the SDK's parsing
 * of that GET ("Conversation not found" 11 ms after it was served). Nothing the SDK sends says its
 * cache holds the conversation, so the hold stays a bound in time.
 */
const NEW_CONVERSATION_SETTLE_MS = 750;

/** Questions one socket may have asked and not yet answered (the Pieces clients ask one at a time). */
export const MAX_QUESTIONS_IN_FLIGHT = 8;

/** Waits out the settle time, or less when the socket closed (its client left, or the host is stopping). */
function settle(started: number, signal: AbortSignal): Promise<void> {
  const wait = NEW_CONVERSATION_SETTLE_MS - (Date.now() - started);
  if (wait <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, wait);
    signal.addEventListener('abort', done, { once: true });
  });
}

export const qgptRoutes: RouteModule = (router, { core, streams, searches }) => {
  const logger = core.context.logger;

  // The non-streaming form of the stream's question: the same Copilot.ask (model check, stored
  // messages, prompt), one QGPTQuestionOutput. A client that leaves stops the answer.
  route(router, op.question, async (ctx) => {
    const question = body(ctx, op.question);
    const abort = new AbortController();
    whenClientLeaves(ctx, () => abort.abort());
    const answer = await core.copilot.ask({
      query: question.query,
      ...(question.conversation ? { conversation: question.conversation } : {}),
      ...(question.model ? { model: question.model } : {}),
      ...relevantContext(question.relevant),
      signal: abort.signal,
    });
    json(ctx, questionOutput(answer.text));
  });

  // The snippets relevant to a query, from the search /search/neural_code makes (hybrid while an
  // embedding model is loaded); with options.question, answered with them as context as above.
  route(router, op.relevance, async (ctx) => {
    const relevance = body(ctx, op.relevance);
    const abort = new AbortController();
    whenClientLeaves(ctx, () => abort.abort());
    let relevant: W.QGPTRelevanceOutput['relevant'] = { iterable: [] };
    await withSlot(ctx, searches, async () => {
      relevant = relevantSeeds(core, relevance.query, (await core.recall.plan(relevance.query)).semantic);
    });
    if (abort.signal.aborted) return;
    const answer = relevance.options?.question
      ? await core.copilot.ask({
          query: relevance.query,
          ...(relevance.model ? { model: relevance.model } : {}),
          assets: relevant.iterable.flatMap((seed) => (seed.id ? [seed.id] : [])),
          signal: abort.signal,
        })
      : undefined;
    json(ctx, { relevant, ...(answer ? { answer: questionOutput(answer.text) } : {}) } satisfies W.QGPTRelevanceOutput);
  });

  streams.register(qgptSockets.stream.path, (subscriber) => {
    const running = new Set<AbortController>();
    const closed = new AbortController();
    return {
      receive(frame) {
        if ('error' in frame) {
          subscriber.send({ conversation: '', status: 'FAILED', statusCode: frame.error.status, errorMessage: frame.error.message });
          return;
        }
        let input: z.output<ReturnType<typeof streamInput>>;
        try {
          input = parse(streamInput(), frame.value, 'QGPTStreamInput');
        } catch (error) {
          const message = describeError(error)?.message ?? 'The frame is not a QGPTStreamInput.';
          subscriber.send({ conversation: '', status: 'FAILED', statusCode: 400, errorMessage: message });
          return;
        }
        const request = input.request ?? newId();
        if (input.stop || input.reset) {
          for (const abort of running) abort.abort();
          subscriber.send({ request, conversation: input.conversation ?? '', status: input.reset ? 'RESET' : 'STOPPED', statusCode: 200 });
          return;
        }
        if (running.size >= MAX_QUESTIONS_IN_FLIGHT) {
          subscriber.send({
            request,
            conversation: input.conversation ?? '',
            status: 'FAILED',
            statusCode: 429,
            errorMessage: `At most ${MAX_QUESTIONS_IN_FLIGHT} questions may be in flight on one socket; wait for an answer before asking again.`,
          });
          return;
        }
        const abort = new AbortController();
        running.add(abort);
        const started = Date.now();
        const query = input.relevance?.query ?? input.question?.query ?? '';
        const model = input.relevance?.model ?? input.question?.model;
        // The Python SDK and CLI attach assets in `relevance`; the vanilla example sends `question.relevant`.
        const context = relevantContext(input.question?.relevant);
        // Returned, so the frame's bytes count against what all sockets may hold until it is answered.
        return core.copilot
          .ask({
            query,
            ...(input.conversation ? { conversation: input.conversation } : {}),
            assets: [...(input.relevance?.assets?.iterable ?? []).map((asset) => asset.id), ...context.assets],
            snippets: context.snippets,
            ...(model ? { model } : {}),
            signal: abort.signal,
          })
          .then(async (answer) => {
            if (answer.conversation !== input.conversation) await settle(started, closed.signal);
            return answer;
          })
          .then(
            (answer) => {
              const base = { request, conversation: answer.conversation, statusCode: 200 };
              subscriber.send({ ...base, status: 'IN-PROGRESS', question: questionOutput(answer.text) });
              subscriber.send({ ...base, status: 'COMPLETED' });
            },
            (error: unknown) => {
              const known = describeError(error);
              if (!known && !abort.signal.aborted) logger.error(`${qgptSockets.stream.path} failed`, error);
              subscriber.send({
                request,
                conversation: input.conversation ?? '',
                status: abort.signal.aborted ? 'STOPPED' : 'FAILED',
                statusCode: known?.status ?? 500,
                errorMessage: known?.message ?? `The local model could not answer: ${(error as Error).message}`,
              });
            },
          )
          .finally(() => running.delete(abort));
      },
      dispose() {
        closed.abort();
        for (const abort of running) abort.abort();
      },
    };
  });
};
