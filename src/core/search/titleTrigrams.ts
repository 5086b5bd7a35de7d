/**
 * An in-memory trigram index over each asset's title (its name and tags), for typo tolerance.
 * Titles are short, so the index is a few dozen bytes per asset; looking a query's trigrams up in
 * it costs well under a millisecond at 100k assets, where a trigram OR in FTS5 cost 15–110 ms
 * (bm25 reads every matching row to weigh the trigrams). It is read from the store when first
 * needed and kept in step by the search index's writes.
 *
 * Each word of a title is also posted under its first two characters (a word-start code, in a
 * range no trigram code reaches), so completion finds the titles with a word starting with one or
 * two typed characters without reading every title (a scan of 100k titles took 7–18 ms).
 */

import { isSeparator, isWordStart, matchQuality, TopMatches } from './titleMatches.ts';
import { PackedPostings, PostingsBuilder, type PostingList } from './titlePostings.ts';

export interface TitleSource {
  /** Every asset's rowid and title, read when the index is first used. */
  titles(): Iterable<{ readonly rowid: number; readonly title: string }>;
}

export class TitleTrigrams {
  private readonly source: TitleSource;
  private readonly titles = new Map<number, string>();
  /** Trigram code → rowids. Replaced or deleted titles leave stale entries until the next compaction. */
  private postings: PackedPostings | undefined;
  private stale = 0;
  private reading: Reading | undefined;

  constructor(source: TitleSource) {
    this.source = source;
  }

  /**
   * Reads the titles a slice at a time between other work (a search arriving meanwhile finishes
   * the rest at once), so a large store's first requests after start are not held up by it.
   */
  async warmGradually(slice = 2000): Promise<void> {
    if (this.postings) return;
    const reading = this.startReading();
    while (!this.postings && this.reading === reading) {
      if (reading.step(slice)) {
        this.finishReading(reading);
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Ends a gradual reading (the store is closing); the next search reads again. */
  dispose(): void {
    this.reading = undefined;
  }

  set(rowid: number, title: string): void {
    if (!this.postings) {
      // Read while this write happened: replayed once the reading is done.
      this.reading?.queued.push([rowid, title]);
      return;
    }
    this.delete(rowid);
    const lower = title.toLowerCase();
    this.titles.set(rowid, lower);
    for (const code of codesOf(lower)) this.postings.add(code, rowid);
  }

  delete(rowid: number): void {
    if (!this.postings) {
      this.reading?.queued.push([rowid, undefined]);
      return;
    }
    const old = this.titles.get(rowid);
    if (old === undefined) return;
    this.titles.delete(rowid);
    this.stale += codesOf(old).size;
    if (this.stale > this.postings.entries / 4) this.compact();
  }

  /**
   * Rowids whose title holds at least `minShare` of the distinct `grams`, most shared first (then
   * the shortest title, the closest to the query; then the newest), at most `limit`.
   */
  candidates(grams: readonly string[], minShare: number, limit: number): number[] {
    const postings = this.build();
    const codes = new Set(grams.map(codeOf));
    const shared = new Map<number, number>();
    for (const code of codes) {
      const rows = postings.get(code);
      if (!rows) continue;
      // Stale entries can repeat a rowid within one list; each trigram counts once.
      const counted = this.stale > 0 ? new Set<number>() : undefined;
      rows.forEach((rowid) => {
        if (counted) {
          if (counted.has(rowid)) return;
          counted.add(rowid);
        }
        shared.set(rowid, (shared.get(rowid) ?? 0) + 1);
      });
    }
    const needed = Math.max(1, Math.ceil(minShare * codes.size));
    const found: Array<[rowid: number, count: number, length: number]> = [];
    for (const [rowid, count] of shared) {
      if (count < needed) continue;
      const title = this.titles.get(rowid);
      // A stale entry: the title is gone or no longer holds these trigrams.
      if (title === undefined || (this.stale > 0 && sharedWith(codes, title) < needed)) continue;
      found.push([rowid, count, title.length]);
    }
    return found
      .sort((a, b) => b[1] - a[1] || a[2] - b[2] || b[0] - a[0])
      .slice(0, limit)
      .map(([rowid]) => rowid);
  }

  /**
   * Rowids whose title contains every term as a substring (terms of three characters or more),
   * the shortest title first (the closest to the query), then the newest; at most `limit`.
   */
  containing(terms: readonly string[], limit: number): number[] {
    const postings = this.build();
    const lists: PostingList[] = [];
    for (const term of terms) {
      for (const code of codesOf(term, false)) {
        const rows = postings.get(code);
        if (!rows) return [];
        lists.push(rows);
      }
    }
    if (lists.length === 0) return [];
    // The rarest trigram's list bounds the work; every candidate is checked on its real title.
    const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a));
    const found: Array<[rowid: number, length: number]> = [];
    const seen = new Set<number>();
    shortest.forEach((rowid) => {
      if (seen.has(rowid)) return;
      seen.add(rowid);
      const title = this.titles.get(rowid);
      if (title !== undefined && terms.every((term) => title.includes(term))) found.push([rowid, title.length]);
    });
    return found
      .sort((a, b) => a[1] - b[1] || b[0] - a[0])
      .slice(0, limit)
      .map(([rowid]) => rowid);
  }

  /**
   * Completion candidates for `typed` (two characters or more): titles with a word starting with
   * it and, from three characters, titles containing it anywhere. `weigh` refuses a rowid (0) or weighs it (higher
   * first among equal matches); it is asked for every candidate, so it must be cheap. Best first, at most `limit`: a word equal to `typed`, then a word
   * starting with it, then a match inside a word; then the weight; then the shorter title; then the
   * newer asset.
   */
  completions(typed: string, weigh: (rowid: number) => number, limit: number): number[] {
    const prefix = typed.toLowerCase();
    // One character starts a word in most titles: the caller looks through the newest instead.
    if (prefix.length < 2 || limit <= 0) return [];
    const postings = this.build();
    const lists: PostingList[] = [];
    if (prefix.length >= 3) {
      // Every title containing the prefix is in the list of each of its trigrams: the rarest bounds the work.
      let rarest: PostingList | undefined;
      for (const code of codesOf(prefix, false)) {
        const rows = postings.get(code);
        if (!rows) return [];
        if (!rarest || rows.length < rarest.length) rarest = rows;
      }
      if (rarest) lists.push(rarest);
    } else {
      const rows = postings.get(wordStartCode(prefix, 0));
      if (rows) lists.push(rows);
    }
    const best = new TopMatches(limit);
    const seen = lists.length > 1 || this.stale > 0 ? new Set<number>() : undefined;
    const visit = (rowid: number): void => {
      if (seen) {
        if (seen.has(rowid)) return;
        seen.add(rowid);
      }
      // The weight first: it is an array read, and refuses most rows (other languages) before their title is looked at.
      const weight = weigh(rowid);
      if (weight <= 0) return;
      const title = this.titles.get(rowid);
      if (title === undefined) return;
      const quality = matchQuality(title, prefix);
      if (quality >= 0) best.offer(rowid, quality, weight, title.length);
    };
    for (const rows of lists) rows.forEach(visit);
    return best.rowids();
  }

  /** The title of `rowid` as the index holds it (lower-cased). */
  titleOf(rowid: number): string | undefined {
    this.build();
    return this.titles.get(rowid);
  }


  private build(): PackedPostings {
    if (this.postings) return this.postings;
    const reading = this.startReading();
    reading.step(Number.POSITIVE_INFINITY);
    return this.finishReading(reading);
  }

  private startReading(): Reading {
    if (this.reading) return this.reading;
    const titles = this.titles;
    // What an ended reading put there: every title is counted as it is read.
    titles.clear();
    const source = this.source;
    this.reading = new Reading(
      titles,
      (function* () {
        for (const { rowid, title } of source.titles()) {
          const lower = title.toLowerCase();
          titles.set(rowid, lower);
          yield rowid;
        }
      })(),
    );
    return this.reading;
  }

  private finishReading(reading: Reading): PackedPostings {
    const postings = reading.builder.finish();
    this.postings = postings;
    this.reading = undefined;
    for (const [rowid, title] of reading.queued) {
      if (title === undefined) this.delete(rowid);
      else this.set(rowid, title);
    }
    return postings;
  }

  private compact(): void {
    this.postings = buildPostings(this.titles);
    this.stale = 0;
  }

  /** Bytes the packed posting lists hold (undefined before the index is read). */
  get packedBytes(): number | undefined {
    return this.postings?.packedBytes;
  }
}

/**
 * A reading of the store's titles in progress, and the writes that happened during it: each title
 * is counted as it is read (the store gives them by rowid), then all are filled in rowid order.
 */
class Reading {
  builder = new PostingsBuilder();
  readonly queued: Array<[rowid: number, title: string | undefined]> = [];
  private readonly titles: ReadonlyMap<number, string>;
  /** Rowids of the titles read, each put in `titles` as it is given. */
  private readonly reading: Iterator<number>;
  private last = -Infinity;
  /** A source that gave rowids out of order: all are counted again, in order, once read. */
  private recount = false;
  /** Once all are read: the rowids in order, counted (when recounting) then filled up to `next`. */
  private rowids: Float64Array | undefined;
  private next = 0;

  constructor(titles: ReadonlyMap<number, string>, reading: Iterator<number>) {
    this.titles = titles;
    this.reading = reading;
  }

  /** Reads, then fills, up to `count` titles; true once all are filled. */
  step(count: number): boolean {
    for (let i = 0; i < count; i++) {
      if (this.rowids === undefined) {
        const read = this.reading.next();
        if (read.done) {
          this.rowids = ascendingRowids(this.titles);
          if (this.recount) this.builder = new PostingsBuilder();
        } else if (this.recount || read.value <= this.last) this.recount = true;
        else {
          this.last = read.value;
          countTitle(this.builder, read.value, this.titles.get(read.value)!);
        }
        continue;
      }
      const rowids = this.rowids;
      if (this.next === rowids.length) {
        if (!this.recount) return true;
        this.recount = false;
        this.next = 0;
        continue;
      }
      const rowid = rowids[this.next++]!;
      if (this.recount) countTitle(this.builder, rowid, this.titles.get(rowid)!);
      else fillTitle(this.builder, rowid, this.titles.get(rowid)!);
    }
    return this.rowids !== undefined && !this.recount && this.next === this.rowids.length;
  }
}

function ascendingRowids(titles: ReadonlyMap<number, string>): Float64Array {
  return Float64Array.from(titles.keys()).sort();
}

function countTitle(builder: PostingsBuilder, rowid: number, title: string): void {
  const { codes, length } = indexCodes(title);
  builder.count(rowid, codes, length);
}

function fillTitle(builder: PostingsBuilder, rowid: number, title: string): void {
  const { codes, length } = indexCodes(title);
  builder.fill(rowid, codes, length);
}

/** The packed lists of `titles`, both passes at once (a compaction). */
function buildPostings(titles: ReadonlyMap<number, string>): PackedPostings {
  const builder = new PostingsBuilder();
  const rowids = ascendingRowids(titles);
  for (const rowid of rowids) countTitle(builder, rowid, titles.get(rowid)!);
  for (const rowid of rowids) fillTitle(builder, rowid, titles.get(rowid)!);
  return builder.finish();
}

/**
 * The trigram of `text` at `at` as a small integer (10 bits per character, exact below U+0400,
 * so for Latin, Greek and Cyrillic titles): cheap map keys and no string per posting. Other
 * scripts may share codes; titles are checked on their text (containing) or re-ranked on it.
 */
function codeAt(text: string, at: number): number {
  return ((text.charCodeAt(at) & 0x3ff) << 20) | ((text.charCodeAt(at + 1) & 0x3ff) << 10) | (text.charCodeAt(at + 2) & 0x3ff);
}

function codeOf(gram: string): number {
  return codeAt(gram, 0);
}

/** Word-start codes are above every trigram code (those take 30 bits). */
const WORD_START = 1 << 30;

/** The word-start code of the word at `at`: its first two characters (a one-letter word's second is 0). */
function wordStartCode(text: string, at: number): number {
  const second = at + 1 < text.length && !isSeparator(text.charCodeAt(at + 1)) ? text.charCodeAt(at + 1) & 0x3ff : 0;
  return WORD_START | ((text.charCodeAt(at) & 0x3ff) << 10) | second;
}

/** The title's trigram codes and, for the index (not for a query), the word-start code of each of its words. */
function codesOf(title: string, wordStarts = true): Set<number> {
  const codes = new Set<number>();
  for (let i = 0; i + 3 <= title.length; i++) codes.add(codeAt(title, i));
  if (wordStarts) for (let i = 0; i < title.length; i++) if (isWordStart(title, i)) codes.add(wordStartCode(title, i));
  return codes;
}

/** A title's index codes: the first `length` of `codes`. */
interface Codes {
  codes: Int32Array;
  length: number;
}

/** Views kept for lengths up to this (a title of 200 characters has about 230 codes). */
const MAX_KEPT_VIEW = 512;

const scratch: Codes & { views: Int32Array[] } = { codes: new Int32Array(256), length: 0, views: [] };

/**
 * What `codesOf` gives the index, distinct and ascending, in a scratch array that the next call
 * reuses (the builder reads it at once), sorted through a view kept for each length: a build of 100k
 * titles made a Set a title (150 MB of young garbage), then two views a title (2 × 200k objects),
 * and garbage made while the titles kept are read grows V8's young generation, up to 32 MB.
 */
function indexCodes(title: string): Codes {
  if (scratch.codes.length < 2 * title.length) {
    scratch.codes = new Int32Array(4 * title.length);
    scratch.views = [];
  }
  const codes = scratch.codes;
  let count = 0;
  for (let i = 0; i + 3 <= title.length; i++) codes[count++] = codeAt(title, i);
  for (let i = 0; i < title.length; i++) if (isWordStart(title, i)) codes[count++] = wordStartCode(title, i);
  (count <= MAX_KEPT_VIEW ? (scratch.views[count] ??= codes.subarray(0, count)) : codes.subarray(0, count)).sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || codes[i] !== codes[i - 1]) codes[distinct++] = codes[i]!;
  scratch.length = distinct;
  return scratch;
}

function sharedWith(codes: ReadonlySet<number>, title: string): number {
  let count = 0;
  for (const code of codesOf(title)) if (codes.has(code)) count++;
  return count;
}
