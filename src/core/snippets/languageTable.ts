/**
 * Each ordinary asset's language by rowid, in memory (one byte per rowid), so completion weighs the
 * title index's matches by language without reading their rows. Read from the store at start a
 * page at a time between other work (`warm`), or at once by the first query that comes sooner,
 * and kept in step by the change feed: changed assets are read again before the next query, or,
 * after more changes than that is worth (an import), the whole table.
 */
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';

/** Changed assets read one by one before a query; past this many, the table is read again. */
const MAX_PENDING = 2_000;
/** Quiet after a burst of changes (an import) before the table is read again. */
const REWARM_QUIET_MS = 1_000;
const PAGE = 5_000;

/** Languages that share snippets: a TypeScript snippet is good in a TSX file and back. */
const FAMILIES: readonly (readonly string[])[] = [
  ['ts', 'tsx'],
  ['js', 'jsx'],
  ['c', 'h'],
  ['cpp', 'hpp', 'cc', 'cxx'],
  ['sh', 'bash', 'zsh'],
  ['yaml', 'yml'],
];
/** Snippets of no particular language: offered in every document. */
const NEUTRAL = new Set(['txt', 'text', 'UNKNOWN']);

/** Weights of a document language: 3 the same language, 2 its family, 1 language-neutral (or any, in a plain-text document). */
export type Weigher = (rowid: number) => number;

export class LanguageTable implements Disposable {
  private readonly context: StoreContext;
  /** rowid → language code (0: no ordinary asset known there). */
  private codes = new Uint8Array(0);
  private readonly names: string[] = [''];
  private readonly byName = new Map<string, number>();
  /** cold: not read (or dropped after too many changes); reading: `warm` is under way; built: in step once `pending` is read. */
  private state: 'cold' | 'reading' | 'built' = 'cold';
  /** Assets changed since the table (or the part `warm` has read) was read. */
  private readonly pending = new Set<string>();
  private readonly subscription: Disposable;
  /** Set once the table was dropped for too many changes: it is read again once they stop. */
  private rewarm: ReturnType<typeof setTimeout> | undefined;
  private dropped = false;

  constructor(context: StoreContext) {
    this.context = context;
    this.subscription = context.onDidChange((change) => {
      if (change.kind !== 'asset') return;
      if (this.state === 'cold') {
        if (this.dropped) this.warmWhenQuiet();
      } else if (this.pending.size >= MAX_PENDING) {
        this.state = 'cold';
        this.pending.clear();
        this.dropped = true;
        this.warmWhenQuiet();
      } else this.pending.add(change.id);
    });
  }

  /** After an import, the table is read again in the background once its writes stop, not by the next keystroke. */
  private warmWhenQuiet(): void {
    clearTimeout(this.rewarm);
    this.rewarm = setTimeout(() => {
      this.rewarm = undefined;
      this.warm().catch(() => undefined);
    }, REWARM_QUIET_MS);
    this.rewarm.unref?.();
  }

  /** Reads the table a page at a time, giving the event loop a turn between pages (host start). */
  async warm(): Promise<void> {
    if (this.state !== 'cold') return;
    this.start();
    const reading = this.pages();
    for (;;) {
      // A query read the whole table meanwhile, or changes made it cold again: stop.
      if (!this.isReading() || reading.next().done) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.isReading()) this.state = 'built';
  }

  /** Brings the table in step with the store (read whole when it was not read yet). */
  refresh(): void {
    if (this.state !== 'built') {
      this.start();
      for (const _page of this.pages());
      this.state = 'built';
    }
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending.clear();
    const rows = this.context.database
      .prepare('SELECT a.rowid AS rowid, a.language AS language, a.suggested AS suggested, a.pseudo AS pseudo FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value')
      .all(JSON.stringify(ids)) as Array<{ rowid: number; language: string; suggested: number; pseudo: number }>;
    for (const row of rows) this.set(row.rowid, row.suggested === 0 && row.pseudo === 0 ? row.language : undefined);
  }

  /** How much a document of `language` (undefined: one Satchel does not know) wants each asset. */
  weigher(language: string | undefined): Weigher {
    const byCode = new Uint8Array(256);
    const family = FAMILIES.find((members) => language !== undefined && members.includes(language)) ?? [];
    const plainText = language !== undefined && NEUTRAL.has(language);
    this.names.forEach((name, code) => {
      if (code === 0) return;
      if (name === language) byCode[code] = 3;
      else if (family.includes(name)) byCode[code] = 2;
      else if (NEUTRAL.has(name) || plainText) byCode[code] = 1;
    });
    const codes = this.codes;
    return (rowid) => (rowid < codes.length ? byCode[codes[rowid]!]! : 0);
  }

  /**
   * The newest assets `weigh` accepts and `also` (when given) lets through, by rowid (the order
   * they were stored in), at most `limit`.
   */
  newest(weigh: Weigher, limit: number, also?: (rowid: number) => boolean): number[] {
    const found: number[] = [];
    for (let rowid = this.codes.length - 1; rowid > 0 && found.length < limit; rowid--) {
      if (weigh(rowid) > 0 && (also === undefined || also(rowid))) found.push(rowid);
    }
    return found;
  }

  dispose(): void {
    clearTimeout(this.rewarm);
    this.subscription.dispose();
  }

  /** A method, not a field test: the state changes while `warm` awaits. */
  private isReading(): boolean {
    return this.state === 'reading';
  }

  /** A reading from the start; changes from now on are read again afterwards. */
  private start(): void {
    this.codes = new Uint8Array(0);
    this.pending.clear();
    this.state = 'reading';
  }

  /**
   * Reads every ordinary asset's rowid and language, a page per step, each page as one string
   * (stepping through 100k rows one by one costs more than the reading). Each page walks the table
   * from the last rowid read: the `+` keeps the planner off the listing index on (suggested,
   * pseudo, created), through which every page read and sorted every ordinary asset again (after a
   * 1M-snippet import, 200 pages of a million rows each, health stalled for seconds at a time).
   */
  private *pages(): Generator<void> {
    const page = this.context.database.prepare(
      `SELECT group_concat(rowid || ' ' || language, char(10)) AS rows, MAX(rowid) AS last
       FROM (SELECT rowid, language FROM assets WHERE rowid > ? AND +suggested = 0 AND +pseudo = 0 ORDER BY rowid LIMIT ${PAGE})`,
    );
    for (let after = 0; ; ) {
      const { rows, last } = page.get(after) as { rows: string | null; last: number | null };
      if (last === null || rows === null) return;
      for (const line of rows.split('\n')) {
        const space = line.indexOf(' ');
        this.set(Number(line.slice(0, space)), line.slice(space + 1));
      }
      after = last;
      yield;
    }
  }

  private set(rowid: number, language: string | undefined): void {
    if (rowid >= this.codes.length) {
      if (language === undefined) return;
      const grown = new Uint8Array(Math.max(rowid + 1, this.codes.length * 2, 1024));
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[rowid] = language === undefined ? 0 : this.codeOf(language);
  }

  /** A small number per language; past 255 distinct languages (not a real store) the rest share the last. */
  private codeOf(language: string): number {
    let code = this.byName.get(language);
    if (code === undefined) {
      code = Math.min(this.names.length, 255);
      if (code === this.names.length) this.names.push(language);
      this.byName.set(language, code);
    }
    return code;
  }
}
