/**
 * A test-only extension loaded as the development extension: one chat model ("Stub model",
 * vendor `satchel-test`) that records every request and answers with a fixed sentence.
 * VS Code 1.139 sends no chat request to any participant while no language model exists at all
 * ("Language model unavailable"), and code-server has no Copilot; with this model picked, the
 * suite drives @satchel through the real chat view and checks what the model was (not) sent.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STUB_EXTENSION_ID = 'satchel-test.stub-model';
export const STUB_VENDOR = 'satchel-test';
export const STUB_ANSWER = 'Stub model answer: wrap the call and wait longer after each failure [1].';

const main = `
const vscode = require('vscode');
const requests = [];
exports.activate = (context) => {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(${JSON.stringify(STUB_VENDOR)}, {
    provideLanguageModelChatInformation: () => [{
      id: 'stub', name: 'Stub model', family: 'stub', version: '1', maxInputTokens: 100000, maxOutputTokens: 1000,
      capabilities: {}, isUserSelectable: true,
    }],
    provideLanguageModelChatResponse: async (model, messages, options, progress) => {
      const text = messages.map((m) => m.content.map((p) => (typeof p.value === 'string' ? p.value : '')).join('')).join('\\n');
      requests.push(text);
      progress.report(new vscode.LanguageModelTextPart(${JSON.stringify(STUB_ANSWER)}));
    },
    provideTokenCount: async (model, text) => Math.ceil(String(typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
  }));
  return { requests };
};
`;

export function writeStubModelExtension(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'stub-model',
    publisher: 'satchel-test',
    version: '0.0.1',
    engines: { vscode: '^1.104.0' },
    main: './main.js',
    activationEvents: ['onStartupFinished'],
    contributes: { languageModelChatProviders: [{ vendor: STUB_VENDOR, displayName: 'Satchel test stub' }] },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 1));
  writeFileSync(join(dir, 'main.js'), main);
}
