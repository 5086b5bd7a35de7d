/**
 * Writes a tiny but valid GGUF v3 llama model (random f32 weights, a SentencePiece vocabulary with
 * byte fallback) so tests can download, load and run a real model offline. Layout: models.md §2.2.
 */
import { mulberry32 } from '../bench/corpus.ts';

export interface TinyGgufOptions {
  readonly embd?: number;
  readonly layers?: number;
  readonly ff?: number;
  readonly heads?: number;
  readonly kvHeads?: number;
  readonly context?: number;
  readonly seed?: number;
  readonly name?: string;
}

const WORDS = [
  'the', 'a', 'is', 'of', 'and', 'to', 'in', 'it', 'for', 'on', 'with', 'as', 'this', 'that', 'code', 'function',
  'return', 'const', 'let', 'var', 'class', 'import', 'export', 'from', 'async', 'await', 'if', 'else', 'while',
  'error', 'value', 'type', 'string', 'number', 'title', 'summary', 'fix', 'bug', 'test', 'data', 'file', 'user',
  'query', 'index', 'server', 'client', 'request', 'response', 'list', 'map', 'set', 'get', 'new', 'null', 'true',
  'false', 'python', 'java', 'rust', 'go', 'typescript', 'snippet', 'model',
];

const ValueType = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
type VT = typeof ValueType;

type Value =
  | { t: VT['U32'] | VT['I32'] | VT['F32']; v: number }
  | { t: VT['BOOL']; v: boolean }
  | { t: VT['STRING']; v: string }
  | { t: VT['ARRAY']; of: VT['STRING']; v: string[] }
  | { t: VT['ARRAY']; of: VT['F32'] | VT['I32']; v: number[] };

class Writer {
  private chunks: Buffer[] = [];
  length = 0;

  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  f32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(alignment: number): void {
    const rest = this.length % alignment;
    if (rest) this.push(Buffer.alloc(alignment - rest));
  }
  value(value: Value): void {
    this.u32(value.t);
    switch (value.t) {
      case ValueType.U32:
        return this.u32(value.v);
      case ValueType.I32:
        return this.i32(value.v);
      case ValueType.F32:
        return this.f32(value.v);
      case ValueType.BOOL:
        return this.push(Buffer.from([value.v ? 1 : 0]));
      case ValueType.STRING:
        return this.string(value.v);
      case ValueType.ARRAY:
        this.u32(value.of);
        this.u64(value.v.length);
        for (const item of value.v) {
          if (value.of === ValueType.STRING) this.string(item as string);
          else if (value.of === ValueType.F32) this.f32(item as number);
          else this.i32(item as number);
        }
    }
  }
  concat(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let i = 0; i < 256; i++) {
    tokens.push(`<0x${i.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  const pieces = new Set<string>();
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789{}[]():;,."\'=-_+*/<>!?#') pieces.add(c);
  pieces.add('▁');
  for (const word of WORDS) {
    pieces.add(`▁${word}`);
    for (let n = 2; n < word.length; n++) pieces.add(word.slice(0, n));
  }
  const sorted = [...pieces].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const scores = tokens.map(() => 0);
  sorted.forEach((piece, i) => {
    tokens.push(piece);
    types.push(1);
    scores.push(-1 - i * 0.01);
  });
  return { tokens, scores, types };
}

/** Returns the bytes of a tiny llama GGUF (about 0.5 MB with the defaults). */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const embd = options.embd ?? 64;
  const layers = options.layers ?? 2;
  const ff = options.ff ?? 128;
  const heads = options.heads ?? 4;
  const kvHeads = options.kvHeads ?? heads;
  const random = mulberry32(options.seed ?? 42);
  const vocab = vocabulary();
  const nVocab = vocab.tokens.length;
  const kvDim = (embd / heads) * kvHeads;

  const tensors: Array<{ name: string; dims: number[]; norm: boolean }> = [
    { name: 'token_embd.weight', dims: [embd, nVocab], norm: false },
    { name: 'output_norm.weight', dims: [embd], norm: true },
    { name: 'output.weight', dims: [embd, nVocab], norm: false },
  ];
  for (let l = 0; l < layers; l++) {
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [embd], norm: true },
      { name: `blk.${l}.attn_q.weight`, dims: [embd, embd], norm: false },
      { name: `blk.${l}.attn_k.weight`, dims: [embd, kvDim], norm: false },
      { name: `blk.${l}.attn_v.weight`, dims: [embd, kvDim], norm: false },
      { name: `blk.${l}.attn_output.weight`, dims: [embd, embd], norm: false },
      { name: `blk.${l}.ffn_norm.weight`, dims: [embd], norm: true },
      { name: `blk.${l}.ffn_gate.weight`, dims: [embd, ff], norm: false },
      { name: `blk.${l}.ffn_down.weight`, dims: [ff, embd], norm: false },
      { name: `blk.${l}.ffn_up.weight`, dims: [embd, ff], norm: false },
    );
  }

  const metadata: Array<[string, Value]> = [
    ['general.architecture', { t: ValueType.STRING, v: 'llama' }],
    ['general.name', { t: ValueType.STRING, v: options.name ?? 'tiny' }],
    ['general.file_type', { t: ValueType.U32, v: 0 }],
    ['general.alignment', { t: ValueType.U32, v: 32 }],
    ['llama.context_length', { t: ValueType.U32, v: options.context ?? 2048 }],
    ['llama.embedding_length', { t: ValueType.U32, v: embd }],
    ['llama.block_count', { t: ValueType.U32, v: layers }],
    ['llama.feed_forward_length', { t: ValueType.U32, v: ff }],
    ['llama.attention.head_count', { t: ValueType.U32, v: heads }],
    ['llama.attention.head_count_kv', { t: ValueType.U32, v: kvHeads }],
    ['llama.rope.dimension_count', { t: ValueType.U32, v: embd / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { t: ValueType.F32, v: 1e-5 }],
    ['tokenizer.ggml.model', { t: ValueType.STRING, v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: ValueType.ARRAY, of: ValueType.STRING, v: vocab.tokens }],
    ['tokenizer.ggml.scores', { t: ValueType.ARRAY, of: ValueType.F32, v: vocab.scores }],
    ['tokenizer.ggml.token_type', { t: ValueType.ARRAY, of: ValueType.I32, v: vocab.types }],
    ['tokenizer.ggml.bos_token_id', { t: ValueType.U32, v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: ValueType.U32, v: 2 }],
    ['tokenizer.ggml.unknown_token_id', { t: ValueType.U32, v: 0 }],
    ['tokenizer.ggml.add_bos_token', { t: ValueType.BOOL, v: true }],
  ];

  const header = new Writer();
  header.push(Buffer.from('GGUF', 'ascii'));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.length);
  for (const [key, value] of metadata) {
    header.string(key);
    header.value(value);
  }
  const data = new Writer();
  for (const tensor of tensors) {
    data.pad(32);
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(0); // F32
    header.u64(data.length);
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    const values = new Float32Array(count);
    const scale = 1 / Math.sqrt(tensor.dims[0]!);
    for (let i = 0; i < count; i++) values[i] = tensor.norm ? 1 : (random() * 2 - 1) * scale;
    data.push(Buffer.from(values.buffer));
  }
  header.pad(32);
  return Buffer.concat([header.concat(), data.concat()]);
}
