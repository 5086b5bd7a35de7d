/**
 * One question to the host's copilot over `/qgpt/stream` (the socket the Pieces CLI asks on): the
 * loaded local model answers, grounded in the attached assets; the question and answer are kept
 * as a conversation. Resolves with the answer text once the COMPLETED frame arrives.
 */
import { loadWebSocket } from './webSocket.ts';
import { ClientError } from './errors.ts';
import { qgptSockets } from '../wire/qgpt.ts';

export interface CopilotQuestion {
  readonly query: string;
  /** Asset ids whose text the host puts in the prompt. */
  readonly assets?: readonly string[];
  readonly conversation?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface CopilotAnswer {
  readonly conversation: string;
  readonly text: string;
}

interface Frame {
  readonly status?: string;
  readonly conversation?: string;
  readonly statusCode?: number;
  readonly errorMessage?: string;
  readonly question?: { answers?: { iterable?: { text?: string }[] } };
}

export async function askCopilot(baseUrl: string, question: CopilotQuestion): Promise<CopilotAnswer> {
  const url = `${baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}${qgptSockets.stream.path}`;
  if (question.signal?.aborted) throw new ClientError(0, 'aborted', 'The question was cancelled');
  const WebSocket = await loadWebSocket();
  if (question.signal?.aborted) throw new ClientError(0, 'aborted', 'The question was cancelled');
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 5_000 });
    let text = '';
    let settled = false;
    const finish = (error: Error | undefined, answer?: CopilotAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      question.signal?.removeEventListener('abort', onAbort);
      // A socket still connecting cannot close cleanly; its late error is swallowed by the listener below.
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close();
      if (error) reject(error);
      else resolve(answer!);
    };
    const onAbort = () => {
      // Tells the host to stop generating before the socket goes.
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ stop: true }));
      finish(new ClientError(0, 'aborted', 'The question was cancelled'));
    };
    const timer = setTimeout(() => finish(new ClientError(0, 'timeout', 'The local model did not answer in time')), question.timeoutMs ?? 300_000);
    question.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('open', () => {
      socket.send(
        JSON.stringify({
          question: { query: question.query },
          ...(question.conversation ? { conversation: question.conversation } : {}),
          ...(question.assets?.length ? { relevance: { query: question.query, assets: { iterable: question.assets.map((id) => ({ id })) } } } : {}),
        }),
      );
    });
    socket.on('message', (data) => {
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString()) as Frame;
      } catch {
        return;
      }
      for (const answer of frame.question?.answers?.iterable ?? []) text += answer.text ?? '';
      if (frame.status === 'COMPLETED') finish(undefined, { conversation: frame.conversation ?? '', text });
      else if (frame.status === 'FAILED' || frame.status === 'STOPPED') {
        finish(new ClientError(frame.statusCode ?? 500, 'copilot_failed', frame.errorMessage ?? 'The local model could not answer'));
      }
    });
    socket.on('error', (error) => finish(ClientError.unreachableAt(url, error)));
    socket.on('close', () => finish(new ClientError(0, 'unreachable', 'The host closed the copilot stream before answering')));
  });
}
