/**
 * The unigram SentencePiece tokenizer the Universal Sentence Encoder Lite reads its input with:
 * the text NFKC-normalised, spaces made '▁' with one in front, then split into the vocabulary's
 * pieces by the most probable segmentation (Viterbi over the pieces' log probabilities). A
 * character no piece covers is the unknown id 0, and a run of them one id.
 *
 * Behaves as the tokenizer of TensorFlow.js's universal-sentence-encoder (Apache-2.0, Google),
 * which @energetic-ai/embeddings ships, id for id (test/core/models/sentencePiece.test.ts compares
 * them), but in time linear in the text: that one copied the rest of the text at every character.
 */

/** [piece, log probability], by id; the first `reserved` ids are control symbols, never matched. */
export type Vocabulary = ReadonlyArray<readonly [string, number]>;

interface Node {
  readonly children: Map<string, Node>;
  /** The id of the piece ending here, or -1. */
  id: number;
}

const SEPARATOR = '\u2581';
const UNKNOWN = 0;

export class SentencePiece {
  private readonly root: Node = { children: new Map(), id: -1 };
  private readonly scores: Float64Array;
  /** Each piece's length in characters (code points). */
  private readonly lengths: Int32Array;
  /** The longest piece, in characters: how far a match can reach from any position. */
  private readonly longest: number;

  constructor(vocabulary: Vocabulary, reserved = 6) {
    this.scores = new Float64Array(vocabulary.length);
    this.lengths = new Int32Array(vocabulary.length);
    let longest = 1;
    for (let id = 0; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!;
      this.scores[id] = score;
      this.lengths[id] = [...piece].length;
      if (id < reserved) continue;
      let node = this.root;
      for (const symbol of piece) {
        let next = node.children.get(symbol);
        if (!next) node.children.set(symbol, (next = { children: new Map(), id: -1 }));
        node = next;
      }
      node.id = id;
      longest = Math.max(longest, this.lengths[id]!);
    }
    this.longest = longest;
  }

  /**
   * The ids of `text`'s first `maxTokens` pieces. Only the head of a long text is segmented: no
   * piece is longer than `longest` characters (two UTF-16 units each at most), so `maxTokens`
   * pieces after the leading separator never span more.
   */
  encode(text: string, maxTokens = Number.POSITIVE_INFINITY): number[] {
    const limit = Number.isFinite(maxTokens) ? 2 * (maxTokens + 1) * this.longest : Number.POSITIVE_INFINITY;
    const head = text.length > limit ? text.slice(0, limit) : text;
    const normalized = head.normalize('NFKC');
    if (normalized.length === 0) return [];
    const symbols = [...(SEPARATOR + normalized.replaceAll(' ', SEPARATOR))];
    const n = symbols.length;
    // best[end]: the score of the best segmentation of symbols[0, end); 0 means none yet (every
    // piece's score is negative), as the reference implementation decides it, ties to the later start.
    const best = new Float64Array(n + 1);
    const ending = new Int32Array(n + 1);
    // Pieces are visited by start, so a piece ending at `end` is compared after every piece that
    // starts before it; starting from each position, shorter pieces first.
    for (let start = 0; start < n; start++) {
      let node: Node | undefined = this.root;
      let matched = false;
      for (let end = start + 1; end <= n && end - start <= this.longest; end++) {
        node = node.children.get(symbols[end - 1]!);
        if (!node) break;
        if (node.id < 0) continue;
        matched = true;
        this.consider(best, ending, start, end, node.id);
      }
      if (!matched) this.consider(best, ending, start, start + 1, UNKNOWN);
    }
    const ids: number[] = [];
    for (let end = n; end > 0; end -= this.lengths[ending[end]!]!) ids.push(ending[end]!);
    ids.reverse();
    const out: number[] = [];
    for (const id of ids) {
      if (id === UNKNOWN && out[out.length - 1] === UNKNOWN) continue;
      out.push(id);
      if (out.length >= maxTokens) break;
    }
    return out;
  }

  private consider(best: Float64Array, ending: Int32Array, start: number, end: number, id: number): void {
    const score = this.scores[id]! + best[start]!;
    if (best[end] === 0 || score >= best[end]!) {
      best[end] = score;
      ending[end] = id;
    }
  }
}
