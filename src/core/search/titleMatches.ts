/**
 * How a completion query matches a title of the title index (titleTrigrams.ts), and the best few
 * matches kept as the index's postings are walked: a whole word first, then the start of a word,
 * then (from three characters) a match inside a word.
 */

/** Characters that end a word: ASCII other than letters, digits, `_` and `$` (titles are lower-cased). */
export function isSeparator(code: number): boolean {
  return code < 128 && !((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 36 || (code >= 65 && code <= 90));
}

export function isWordStart(title: string, at: number): boolean {
  return !isSeparator(title.charCodeAt(at)) && (at === 0 || isSeparator(title.charCodeAt(at - 1)));
}

/**
 * How `title` holds `prefix`: 2 a whole word, 1 the start of a word, 0 inside a word (counted for
 * three characters or more), -1 not at all.
 */
export function matchQuality(title: string, prefix: string): number {
  let quality = -1;
  for (let at = title.indexOf(prefix); at !== -1; at = title.indexOf(prefix, at + 1)) {
    if (!isWordStart(title, at)) {
      if (prefix.length >= 3) quality = Math.max(quality, 0);
      continue;
    }
    const end = at + prefix.length;
    if (end === title.length || isSeparator(title.charCodeAt(end))) return 2;
    quality = 1;
  }
  return quality;
}

/** Whether `title` (lower-cased) has a word starting with `prefix` (lower-cased). */
export function hasWordStarting(title: string, prefix: string): boolean {
  return matchQuality(title, prefix) >= 1;
}

interface Match {
  readonly rowid: number;
  readonly quality: number;
  readonly weight: number;
  readonly length: number;
}

/** The best `limit` matches seen, kept in order (limits are small: a completion list). */
export class TopMatches {
  private readonly limit: number;
  private readonly kept: Match[] = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Keeps the match if it is among the best so far (most are not, and cost one comparison). */
  offer(rowid: number, quality: number, weight: number, length: number): void {
    const worst = this.kept[this.kept.length - 1];
    if (this.kept.length >= this.limit && worst !== undefined && !better(quality, weight, length, rowid, worst)) return;
    let at = this.kept.length;
    while (at > 0 && better(quality, weight, length, rowid, this.kept[at - 1]!)) at--;
    this.kept.splice(at, 0, { rowid, quality, weight, length });
    if (this.kept.length > this.limit) this.kept.pop();
  }

  rowids(): number[] {
    return this.kept.map((match) => match.rowid);
  }
}

/** Whether a match with these facts ranks before `b`. */
function better(quality: number, weight: number, length: number, rowid: number, b: Match): boolean {
  if (quality !== b.quality) return quality > b.quality;
  if (weight !== b.weight) return weight > b.weight;
  if (length !== b.length) return length < b.length;
  return rowid > b.rowid;
}
