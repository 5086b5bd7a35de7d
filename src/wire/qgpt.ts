/**
 * The copilot WebSocket's client frame (`/qgpt/stream`, QGPTStreamInput): a question, a stop or a
 * reset. Stricter than the published model in one place: relevance assets, when given, list them.
 */
import { z } from 'zod';
import { socket } from './operation.ts';

const ids = z.looseObject({ iterable: z.array(z.looseObject({ id: z.string() })) });

export const qgptStreamInput = z.looseObject({
  conversation: z.string().min(1).nullish(),
  request: z.string().nullish(),
  stop: z.boolean().nullish(),
  reset: z.boolean().nullish(),
  relevance: z.looseObject({ query: z.string().nullish(), assets: ids.nullish() }).nullish(),
  question: z.looseObject({ query: z.string().nullish() }).nullish(),
});

/** The copilot socket: QGPTStreamInput frames in, QGPTStreamOutput frames out (server/routes/qgpt.ts). */
export const qgptSockets = {
  stream: socket<unknown>()('/qgpt/stream'),
} as const;
