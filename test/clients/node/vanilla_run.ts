/**
 * Runs the copilot vanilla example's own code (bundled by copilotVanilla.test.ts) the way its page
 * does: register the application, take the models snapshot, choose GPT-3.5 as its main() does, and
 * ask a question through CopilotStreamController.askQGPT (QGPTApi.relevance, then /qgpt/stream).
 *
 * The page's browser is stood in for by the least it touches: `window` (the platform guess and
 * `window.onload`), `document.getElementById` (no context box, so no seed), and `fetch` / `WebSocket`
 * pointed at the Satchel under test (the example hard-codes Pieces OS's localhost:1000).
 * Prints one JSON line per step.
 *
 * Usage: node --experimental-strip-types vanilla_run.ts <bundle.mjs> <satchel base URL> <question>
 */
const [bundle, base, question] = process.argv.slice(2);
if (!bundle || !base || !question) throw new Error('usage: vanilla_run.ts <bundle.mjs> <base URL> <question>');

const PIECES_OS = 'http://localhost:1000';
const redirect = (url: string): string => url.replace(PIECES_OS, base).replace('ws://localhost:1000', base.replace(/^http/, 'ws'));
const print = (step: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(step)}\n`);

const nodeFetch = globalThis.fetch;
globalThis.fetch = (input: string | URL | Request, init?: RequestInit) =>
  nodeFetch(typeof input === 'string' ? redirect(input) : input instanceof URL ? redirect(input.href) : new Request(redirect(input.url), input), init);

/** Frames the copilot socket received, and a wake-up for when its answer is over. */
const streamed: Array<{ status?: string }> = [];
let answerOver: () => void = () => {};
const NodeWebSocket = globalThis.WebSocket;
class RedirectedWebSocket extends NodeWebSocket {
  static readonly opened: RedirectedWebSocket[] = [];
  constructor(url: string | URL, protocols?: string | string[]) {
    super(redirect(String(url)), protocols);
    RedirectedWebSocket.opened.push(this);
    if (String(url).endsWith('/qgpt/stream')) {
      // Registered before the example's own onmessage, so it runs first: the wake-up is deferred
      // until the example has rendered the final message.
      this.addEventListener('message', (event) => {
        const frame = JSON.parse(String(event.data)) as { status?: string };
        streamed.push(frame);
        if (frame.status !== 'IN-PROGRESS') setTimeout(() => answerOver(), 0);
      });
    }
  }
}
globalThis.WebSocket = RedirectedWebSocket;
Object.assign(globalThis, {
  window: { navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }, location: { reload() {} } },
  document: { getElementById: () => null },
});

interface Bundle {
  getApplication(): Promise<{ id: string; name: string }>;
  CopilotStreamController: {
    selectedModelId: string;
    getInstance(): { askQGPT(input: { query: string; setMessage(message: string): void }): Promise<void>; closeSocket(): void };
  };
  ModelProgressController: { getInstance(): { models: Promise<{ iterable: Array<{ id: string; name: string; foundation?: string }> }> } };
  ModelFoundationEnum: { Gpt35: string };
}
const app = (await import(bundle)) as Bundle;

const application = await app.getApplication();
print({ step: 'connected', id: application.id, name: application.name });

// main(): the snapshot, then GPT-3.5 (not its 16k variant) as the default, as the page does.
const models = await app.ModelProgressController.getInstance().models;
const gpt35 = models.iterable.find((model) => model.foundation === app.ModelFoundationEnum.Gpt35 && !model.name.includes('16k'));
print({ step: 'model', id: gpt35?.id ?? null, name: gpt35?.name ?? null, offered: models.iterable.map((model) => model.name) });
if (!gpt35) process.exit(2);
app.CopilotStreamController.selectedModelId = gpt35.id;

const rendered: string[] = [];
const over = new Promise<void>((resolve) => (answerOver = resolve));
const controller = app.CopilotStreamController.getInstance();
await controller.askQGPT({ query: question, setMessage: (message) => rendered.push(message) });
await Promise.race([over, new Promise((resolve) => setTimeout(resolve, 120_000))]);
print({ step: 'answer', rendered, statuses: streamed.map((frame) => frame.status ?? null) });

controller.closeSocket();
for (const socket of RedirectedWebSocket.opened) socket.close();
print({ step: 'closed' });
process.exit(0);
