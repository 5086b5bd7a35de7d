/** A child for calls.test.ts, served by serveParent: echoes after a delay, fails, or dies on request. */
import { serveParent } from '../../../src/core/rpc/serve.ts';

type Request =
  | { readonly id: number; readonly op: 'echo'; readonly text: string; readonly delayMs: number }
  | { readonly id: number; readonly op: 'fail'; readonly message: string }
  | { readonly id: number; readonly op: 'die' };

serveParent<Request>(async (request) => {
  switch (request.op) {
    case 'echo':
      await new Promise((resolve) => setTimeout(resolve, request.delayMs));
      return request.text;
    case 'fail':
      throw new Error(request.message);
    case 'die':
      process.exit(3);
  }
});
