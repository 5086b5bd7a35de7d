/**
 * The everyday phases of the scripted VS Code day (test/bench/day/driver.ts) as the window's requests
 * to its data host, without VS Code: what the extension sends through its client (src/client) in
 * each phase. Shared by bench:host-memory and bench:host-peaks.
 *
 * 1. start: the window connects (the connector's `connect`), opens its four identifier streams and
 *    reads the Assets view's group counts;
 * 2. first search (`retry backoff`);
 * 3. completion on every keystroke of the day's 70-character Python line, asked as the provider asks
 *    (completionSource.ts's `typedQuery`: the word before the cursor, two characters or more), a
 *    keystroke at most every `keystrokeMs` as the day types;
 * 4. 50 copies, each a connector `suggest` as the copy connector sends it (the day reacts to none
 *    and tracks none: nobody answers the suggestions), at most one every `copyMs`;
 * 5. 20 saves (`createFromText`, as *Save Selection as Asset*), at most one every `saveMs`.
 */
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { typedQuery } from '../../src/extension/completion/completionSource.ts';
import type { StreamConnection } from '../../src/client/streams.ts';
import type { Disposable } from '../../src/core/events.ts';

export const DAY_LINE = 'response = fetch_with_retry(endpoint, attempts=3, backoff_seconds=0.5)';
export const COPIES = 50;
export const SAVES = 20;
const WINDOW = { name: 'VS_CODE', version: '1.139.1', platform: 'LINUX' } as const;

/** The day's blocks (test/bench/day/driver.ts): distinct Python code per copy or save. */
export function dayBlock(kind: string, i: number): string {
  return `def ${kind}_rows_${i}(rows, limit=${i + 3}):\n    picked = [row for row in rows if row.get("score", 0) > ${i % 7}]\n    return sorted(picked, key=lambda row: row["${kind}_${i}"])[:limit]\n`;
}

/** Pacing as the day paces its editor actions (0: as fast as the host answers). */
export interface Pace {
  readonly keystrokeMs: number;
  readonly copyMs: number;
  readonly saveMs: number;
}

export const DAY_PACE: Pace = { keystrokeMs: 50, copyMs: 100, saveMs: 250 };
export const NO_PACE: Pace = { keystrokeMs: 0, copyMs: 0, saveMs: 0 };

export interface EverydayPhase {
  /** The name `--phases` takes. */
  readonly key: 'start' | 'search' | 'complete' | 'copies' | 'saves';
  /** The name in the tables (the day's). */
  readonly name: string;
  readonly run: () => Promise<string>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const atLeast = async <T>(ms: number, work: Promise<T>): Promise<T> => (await Promise.all([work, sleep(ms)]))[0];

/** Resolves with the stream's first frame (the whole collection's ids on connect). */
function firstFrame<T>(stream: StreamConnection<T>): Promise<T> {
  return new Promise((done) => {
    const listener = stream.onFrame((frame) => {
      listener.dispose();
      done(frame);
    });
  });
}

/** The window's side of the everyday phases; dispose closes its streams (the client is the caller's). */
export class EverydayWindow implements Disposable {
  private readonly streams: Disposable[] = [];
  private readonly client: SatchelClient;
  private readonly pace: Pace;
  private application = '';
  readonly phases: readonly EverydayPhase[];

  constructor(client: SatchelClient, pace: Pace = DAY_PACE) {
    this.client = client;
    this.pace = pace;
    this.phases = [
      { key: 'start', name: 'start', run: () => this.start() },
      { key: 'search', name: 'first search', run: async () => `${(await client.assets.search('retry backoff')).iterable.length} results` },
      { key: 'complete', name: 'completion on each keystroke', run: () => this.complete() },
      { key: 'copies', name: `${COPIES} copies (suggest)`, run: () => this.copies() },
      { key: 'saves', name: `${SAVES} saves`, run: () => this.saves() },
    ];
  }

  private async applicationId(): Promise<string> {
    if (this.application === '') this.application = (await this.client.connector.connect(WINDOW)).application.id;
    return this.application;
  }

  private async start(): Promise<string> {
    await this.applicationId();
    const assets = this.client.assetIdentifiers();
    this.streams.push(assets, this.client.conversationIdentifiers(), this.client.modelIdentifiers(), this.client.agentChangeIdentifiers());
    const ids = await firstFrame(assets);
    const counts = await this.client.snippets.groups('language');
    return `${ids.iterable.length} ids on the assets stream, ${Object.keys(counts).length} count fields`;
  }

  private async complete(): Promise<string> {
    let asked = 0;
    let offered = 0;
    for (let end = 1; end <= DAY_LINE.length; end++) {
      const lineBefore = DAY_LINE.slice(0, end);
      const wordBefore = /[\p{L}\p{N}_]*$/u.exec(lineBefore)?.[0] ?? '';
      const typed = typedQuery({ lineBefore, wordBefore, languageId: 'python', invoked: false }, { enabled: true, triggerPrefix: '' });
      await atLeast(this.pace.keystrokeMs, (async () => {
        if (typed === undefined || typed === 'later') return;
        asked++;
        offered += (await this.client.snippets.completions(typed.query, { language: 'python', limit: 30 })).candidates.length;
      })());
    }
    return `${DAY_LINE.length} keystrokes, ${asked} asked, ${offered} offered`;
  }

  private async copies(): Promise<string> {
    const application = await this.applicationId();
    const decisions = new Map<string, number>();
    for (let i = 0; i < COPIES; i++) {
      const suggestion = await atLeast(this.pace.copyMs, this.client.connector.suggest(application, dayBlock('copied', i), 'py'));
      const kind = suggestion.reuse?.suggested ? 'reuse' : suggestion.save?.suggested ? 'save' : 'none';
      decisions.set(kind, (decisions.get(kind) ?? 0) + 1);
    }
    return [...decisions].map(([kind, n]) => `${kind} ${n}`).join(', ');
  }

  private async saves(): Promise<string> {
    const app = await this.client.connector.connect(WINDOW);
    for (let i = 0; i < SAVES; i++) await atLeast(this.pace.saveMs, this.client.assets.createFromText({ text: dayBlock(`saved_${Date.now()}`, i), application: app.application, language: 'py' }));
    return `${SAVES} saved`;
  }

  dispose(): void {
    for (const stream of this.streams.splice(0)) stream.dispose();
  }
}
