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

/**
 * Builds packed lists in two passes over the same titles, in ascending rowid order: `count` each
 * (every code's entries and bytes), then `fill` each again into lists laid out at their final size.
 * It holds a few numbers a distinct code, nothing an entry: keeping each title's codes until the
 * end (4.7M at 100k titles, 19 MB, and the arrays growing to hold them) made the host's start-up
 * peak while the index was built.
 */
export class PostingsBuilder {
  /** Code → slot (the order codes were first seen in). */
  private readonly slots = new SlotTable();
  private slotCount = 0;
  private slotCodes = new Int32Array(INITIAL_SLOTS);
  private counts = new Int32Array(INITIAL_SLOTS);
  /** Bytes of each list (pass one), then where its next byte goes (pass two). */
  private sizes = new Float64Array(INITIAL_SLOTS);
  /** The last rowid put in each list, each pass. */
  private last = new Float64Array(INITIAL_SLOTS);
  private entries = 0;
  private previous = 0;
  private filled = 0;
  private layout: { codes: Int32Array; starts: Int32Array; counts: Int32Array; bytes: Uint8Array } | undefined;

  /** Bytes the builder holds while it works (tests: a few dozen a distinct code, none an entry). */
  get workingBytes(): number {
    return this.slots.byteLength + this.slotCodes.byteLength + this.counts.byteLength + this.sizes.byteLength + this.last.byteLength;
  }

  /** Pass one: a title's distinct codes (the first `length` of `codes`). Rowids must ascend. */
  count(rowid: number, codes: ArrayLike<number>, length = codes.length): void {
    if (this.layout) throw new Error('PostingsBuilder: count after fill');
    this.ascending(rowid);
    for (let i = 0; i < length; i++) {
      const code = codes[i]!;
      let slot = this.slots.get(code);
      if (slot < 0) {
        slot = this.slotCount++;
        if (slot === this.slotCodes.length) this.grow();
        this.slots.set(code, slot);
        this.slotCodes[slot] = code;
      }
      this.counts[slot]!++;
      this.sizes[slot]! += gapBytes(rowid - this.last[slot]!);
      this.last[slot] = rowid;
      this.entries++;
    }
  }

  /** Pass two: the same titles with the same codes, in the same order. */
  fill(rowid: number, codes: ArrayLike<number>, length = codes.length): void {
    const layout = (this.layout ??= this.lay());
    this.ascending(rowid);
    const bytes = layout.bytes;
    for (let i = 0; i < length; i++) {
      const code = codes[i]!;
      const slot = this.slots.get(code);
      if (slot < 0) throw new Error('PostingsBuilder: a code filled that was not counted');
      let gap = rowid - this.last[slot]!;
      this.last[slot] = rowid;
      let at = this.sizes[slot]!;
      while (gap >= 0x80) {
        bytes[at++] = (gap % 0x80) | 0x80;
        gap = Math.floor(gap / 0x80);
      }
      bytes[at++] = gap;
      this.sizes[slot] = at;
      this.filled++;
    }
  }

  finish(): PackedPostings {
    const layout = (this.layout ??= this.lay());
    if (this.filled !== this.entries) throw new Error(`PostingsBuilder: ${this.filled} entries filled of ${this.entries} counted`);
    return new PackedPostings(layout.codes, layout.starts, layout.counts, layout.bytes, this.entries);
  }

  private ascending(rowid: number): void {
    if (rowid <= this.previous && (this.layout === undefined ? this.entries : this.filled) > 0) throw new Error('PostingsBuilder: rowids must ascend');
    this.previous = rowid;
  }

  /** Lists laid out by ascending code, each at its counted size; `sizes` becomes each list's cursor. */
  private lay(): { codes: Int32Array; starts: Int32Array; counts: Int32Array; bytes: Uint8Array } {
    const slotCount = this.slotCount;
    const bySlot = Int32Array.from({ length: slotCount }, (_, i) => i).sort((a, b) => this.slotCodes[a]! - this.slotCodes[b]!);
    const codes = new Int32Array(slotCount);
    const starts = new Int32Array(slotCount + 1);
    const counts = new Int32Array(slotCount);
    for (let i = 0; i < slotCount; i++) {
      const slot = bySlot[i]!;
      codes[i] = this.slotCodes[slot]!;
      counts[i] = this.counts[slot]!;
      starts[i + 1] = starts[i]! + this.sizes[slot]!;
      this.sizes[slot] = starts[i]!;
    }
    this.last.fill(0);
    this.previous = 0;
    return { codes, starts, counts, bytes: new Uint8Array(starts[slotCount]!) };
  }

  private grow(): void {
    const size = this.slotCodes.length * 2;
    const grown = <T extends Int32Array | Float64Array>(old: T, made: T): T => {
      made.set(old);
      return made;
    };
    this.slotCodes = grown(this.slotCodes, new Int32Array(size));
    this.counts = grown(this.counts, new Int32Array(size));
    this.sizes = grown(this.sizes, new Float64Array(size));
    this.last = grown(this.last, new Float64Array(size));
  }
}

/**
 * Codes (non-negative 31-bit integers) → slots, open addressing in two typed arrays: the builder
 * looks up every entry twice (9.4M lookups at 100k titles), and with a Map the second pass made the
 * build a third slower than the one pass before it.
 */
class SlotTable {
  private keys = new Int32Array(2 * INITIAL_SLOTS).fill(-1);
  private values = new Int32Array(2 * INITIAL_SLOTS);
  /** 32 minus log2 of the capacity: a code's place is the top bits of its product (Fibonacci hashing). */
  private shift = 32 - Math.log2(2 * INITIAL_SLOTS);
  private size = 0;

  get byteLength(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  /** The code's slot, or -1. */
  get(code: number): number {
    const mask = this.keys.length - 1;
    for (let at = Math.imul(code, 0x9e3779b1) >>> this.shift; ; at = (at + 1) & mask) {
      const key = this.keys[at]!;
      if (key === code) return this.values[at]!;
      if (key < 0) return -1;
    }
  }

  /** Adds a code not in the table. */
  set(code: number, slot: number): void {
    if (2 * (this.size + 1) > this.keys.length) this.rehash();
    const mask = this.keys.length - 1;
    let at = Math.imul(code, 0x9e3779b1) >>> this.shift;
    while (this.keys[at]! >= 0) at = (at + 1) & mask;
    this.keys[at] = code;
    this.values[at] = slot;
    this.size++;
  }

  private rehash(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Int32Array(2 * keys.length).fill(-1);
    this.values = new Int32Array(2 * keys.length);
    this.shift--;
    this.size = 0;
    for (let at = 0; at < keys.length; at++) if (keys[at]! >= 0) this.set(keys[at]!, values[at]!);
  }
}

/** Distinct codes a builder first makes room for (doubled as needed: 4,225 at 100k titles). */
const INITIAL_SLOTS = 4096;

/** Bytes a gap takes, seven bits a byte. */
function gapBytes(gap: number): number {
  let bytes = 1;
  while (gap >= 0x80) {
    gap = Math.floor(gap / 0x80);
    bytes++;
  }
  return bytes;
}
