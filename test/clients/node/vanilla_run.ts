/**
 * Runs the copilot vanilla example's own code (bundled by copilotVanilla.test.ts) the way its page
 * does: register the application, take the models snapshot, choose GPT-3.5 as its main() does, and
 * ask a question through CopilotStreamController.askQGPT (QGPTApi.relevance, then /qgpt/stream).
 * The page's browser is stood in for by browser.ts (the example hard-codes Pieces OS's
 * localhost:1000). Prints one JSON line per step.
 *
 * Usage: node --experimental-strip-types vanilla_run.ts <bundle.mjs> <satchel base URL> <question>
 */
import { installBrowser } from './browser.ts';

const [bundle, base, question] = process.argv.slice(2);
if (!bundle || !base || !question) throw new Error('usage: vanilla_run.ts <bundle.mjs> <base URL> <question>');
const print = (step: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(step)}\n`);

const browser = installBrowser(base, ['http://localhost:1000']);

/** Frames the copilot socket received, and a wake-up for when its answer is over. */
const streamed: Array<{ status?: string }> = [];
let answerOver: () => void = () => {};
const PageWebSocket = globalThis.WebSocket;
globalThis.WebSocket = class WatchedWebSocket extends PageWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
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
};

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
print({ step: 'answer', rendered, statuses: streamed.map((frame) => frame.status ?? null), errors: browser.errors });

controller.closeSocket();
for (const socket of browser.sockets) socket.close();
print({ step: 'closed' });
process.exit(0);
