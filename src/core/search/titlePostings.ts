/**
 * The title index's posting lists (titleTrigrams.ts), packed: each list's rowids in ascending
 * order as the gaps between them, seven bits a byte (one byte for most gaps: a common trigram is
 * in most titles), all lists in one byte array found by binary search over their sorted codes.
 * At 100k titles the lists hold 4.7M rowids: 19 MB as one Int32Array a list, 5.2 MB packed, and
 * the few thousand small arrays and their objects are gone too.
 *
 * Rowids added after the build (new and changed titles) are kept in plain arrays beside the packed
 * lists until the next build.
 */

export interface PostingList {
  /** Rowids in the list (a rowid added twice, or stale, counts each time). */
  readonly length: number;
  /** Each rowid: the packed ones ascending, then those added since the build. A plain loop: no generator. */
  forEach(visit: (rowid: number) => void): void;
}

/** Codes → rowids, packed at build time, with what was added since. */
export class PackedPostings {
  /** Distinct codes, ascending. */
  private readonly codes: Int32Array;
  /** List i's bytes are `bytes[starts[i]]` up to `bytes[starts[i + 1]]`. */
  private readonly starts: Int32Array;
  private readonly counts: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly added = new Map<number, number[]>();
  /** Rowids in all lists, those added since the build included. */
  entries: number;

  constructor(codes: Int32Array, starts: Int32Array, counts: Int32Array, bytes: Uint8Array, entries: number) {
    this.codes = codes;
    this.starts = starts;
    this.counts = counts;
    this.bytes = bytes;
    this.entries = entries;
  }

  /** Bytes held by the packed lists (tests, and what the docs measure). */
  get packedBytes(): number {
    return this.codes.byteLength + this.starts.byteLength + this.counts.byteLength + this.bytes.byteLength;
  }

  get(code: number): PostingList | undefined {
    const at = this.indexOf(code);
    const added = this.added.get(code);
    if (at < 0 && added === undefined) return undefined;
    const bytes = this.bytes;
    const start = at < 0 ? 0 : this.starts[at]!;
    const end = at < 0 ? 0 : this.starts[at + 1]!;
    return {
      length: (at < 0 ? 0 : this.counts[at]!) + (added?.length ?? 0),
      forEach(visit: (rowid: number) => void): void {
        let rowid = 0;
        for (let i = start; i < end; ) {
          let gap = 0;
          let shift = 0;
          let byte: number;
          do {
            byte = bytes[i++]!;
            gap += (byte & 0x7f) * 2 ** shift;
            shift += 7;
          } while (byte & 0x80);
          rowid += gap;
          visit(rowid);
        }
        if (added) for (const one of added) visit(one);
      },
    };
  }

  add(code: number, rowid: number): void {
    let list = this.added.get(code);
    if (!list) this.added.set(code, (list = []));
    list.push(rowid);
    this.entries++;
  }

  private indexOf(code: number): number {
    let low = 0;
    let high = this.codes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.codes[middle]!;
      if (found === code) return middle;
      if (found < code) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** Rowid slots a chunk of the builder's stream holds (1 MiB each: no copy of the whole as it grows). */
const CHUNK_BITS = 18;
const CHUNK = 1 << CHUNK_BITS;

/**
 * Builds packed lists from titles given once each, with their codes. Rowids come ascending from a
 * reading of the store; when they do not (a rebuild after changes), the lists are put in order at
 * the end.
 */
export class PostingsBuilder {
  /** Code → slot (the order codes were first seen in). */
  private readonly slots = new Map<number, number>();
  private slotCodes: number[] = [];
  private slotCounts: number[] = [];
  /** Each title's slots, one after another in chunks. */
  private readonly chunks: Int32Array[] = [];
  private used = 0;
  private readonly rowids: number[] = [];
  private readonly ends: number[] = [];
  private ascending = true;

  add(rowid: number, codes: Iterable<number>): void {
    const start = this.used;
    for (const code of codes) {
      let slot = this.slots.get(code);
      if (slot === undefined) {
        slot = this.slotCodes.length;
        this.slots.set(code, slot);
        this.slotCodes.push(code);
        this.slotCounts.push(0);
      }
      this.slotCounts[slot]!++;
      if ((this.used & (CHUNK - 1)) === 0 && this.used >>> CHUNK_BITS === this.chunks.length) this.chunks.push(new Int32Array(CHUNK));
      this.chunks[this.used >>> CHUNK_BITS]![this.used & (CHUNK - 1)] = slot;
      this.used++;
    }
    if (this.used === start) return;
    if (this.rowids.length > 0 && rowid <= this.rowids[this.rowids.length - 1]!) this.ascending = false;
    this.rowids.push(rowid);
    this.ends.push(this.used);
  }

  finish(): PackedPostings {
    const slotCount = this.slotCodes.length;
    // Titles in rowid order: each list is then written ascending, as gaps.
    const order = this.ascending ? undefined : Int32Array.from(this.rowids.keys()).sort((a, b) => this.rowids[a]! - this.rowids[b]!);
    const title = (k: number): number => (order === undefined ? k : order[k]!);
    const slotAt = (i: number): number => this.chunks[i >>> CHUNK_BITS]![i & (CHUNK - 1)]!;
    // Pass one: each list's size in bytes.
    const last = new Float64Array(slotCount);
    const sizes = new Float64Array(slotCount);
    for (let k = 0; k < this.rowids.length; k++) {
      const t = title(k);
      const rowid = this.rowids[t]!;
      for (let i = t === 0 ? 0 : this.ends[t - 1]!; i < this.ends[t]!; i++) {
        const slot = slotAt(i);
        sizes[slot]! += gapBytes(rowid - last[slot]!);
        last[slot] = rowid;
      }
    }
    // Lists laid out by ascending code.
    const bySlot = Int32Array.from(this.slotCodes.keys()).sort((a, b) => this.slotCodes[a]! - this.slotCodes[b]!);
    const codes = new Int32Array(slotCount);
    const starts = new Int32Array(slotCount + 1);
    const counts = new Int32Array(slotCount);
    const cursor = new Float64Array(slotCount);
    for (let i = 0; i < slotCount; i++) {
      const slot = bySlot[i]!;
      codes[i] = this.slotCodes[slot]!;
      counts[i] = this.slotCounts[slot]!;
      cursor[slot] = starts[i]!;
      starts[i + 1] = starts[i]! + sizes[slot]!;
    }
    // Pass two: the gaps.
    const bytes = new Uint8Array(starts[slotCount]!);
    last.fill(0);
    for (let k = 0; k < this.rowids.length; k++) {
      const t = title(k);
      const rowid = this.rowids[t]!;
      for (let i = t === 0 ? 0 : this.ends[t - 1]!; i < this.ends[t]!; i++) {
        const slot = slotAt(i);
        let gap = rowid - last[slot]!;
        last[slot] = rowid;
        let at = cursor[slot]!;
        while (gap >= 0x80) {
          bytes[at++] = (gap % 0x80) | 0x80;
          gap = Math.floor(gap / 0x80);
        }
        bytes[at++] = gap;
        cursor[slot] = at;
      }
    }
    return new PackedPostings(codes, starts, counts, bytes, this.used);
  }
}

/** Bytes a gap takes, seven bits a byte. */
function gapBytes(gap: number): number {
  let bytes = 1;
  while (gap >= 0x80) {
    gap = Math.floor(gap / 0x80);
    bytes++;
  }
  return bytes;
}
