/**
 * Tells an embedding model from a text model by its GGUF metadata, so a file imported without a
 * usage (VS Code's "Import Model File…") lands in the right role. Reads the header's key-value
 * section only, in bounded chunks, and gives up (undefined) on anything it does not expect: the
 * caller then keeps its default. Layout: models.md §2.2 (GGUF v3; v2 is the same for these parts).
 */
import { open, type FileHandle } from 'node:fs/promises';

/** Architectures llama.cpp only runs as encoders (embeddings), whatever else the file says. */
const ENCODER_ARCHITECTURES = new Set(['bert', 'nomic-bert', 'nomic-bert-moe', 'jina-bert-v2', 'jina-bert-v3', 'modern-bert', 'neo-bert', 't5encoder']);
/** Metadata is a few MB (the vocabulary); past this the file is not worth reading further. */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** Sizes of GGUF scalar types by type id (8 string and 9 array are read specially). */
const SCALAR_BYTES: Readonly<Record<number, number>> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export type DetectedUsage = 'TEXT_EMBEDDING' | undefined;

export async function detectUsage(path: string): Promise<DetectedUsage> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const reader = new Reader(handle, Math.min((await handle.stat()).size, MAX_HEADER_BYTES));
    if ((await reader.bytes(4)).toString('latin1') !== 'GGUF') return undefined;
    const version = await reader.u32();
    if (version < 2 || version > 3) return undefined;
    await reader.u64(); // tensor count
    const pairs = await reader.u64();
    let architecture: string | undefined;
    let pooling = false;
    for (let i = 0; i < pairs; i++) {
      const key = await reader.string();
      const type = await reader.u32();
      if (key === 'general.architecture' && type === 8) architecture = await reader.string();
      else {
        if (key.endsWith('.pooling_type')) pooling = true;
        await reader.skipValue(type);
      }
    }
    return (architecture && ENCODER_ARCHITECTURES.has(architecture)) || pooling ? 'TEXT_EMBEDDING' : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

class Reader {
  private readonly handle: FileHandle;
  private readonly limit: number;
  private buffer = Buffer.alloc(0);
  /** File position of `buffer[0]`, and the read position inside `buffer`. */
  private start = 0;
  private at = 0;

  constructor(handle: FileHandle, limit: number) {
    this.handle = handle;
    this.limit = limit;
  }

  async bytes(count: number): Promise<Buffer> {
    if (count > CHUNK) throw new RangeError('field too long');
    if (this.at + count > this.buffer.length) await this.fill(count);
    const out = this.buffer.subarray(this.at, this.at + count);
    this.at += count;
    return out;
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<number> {
    const value = (await this.bytes(8)).readBigUInt64LE(0);
    if (value > BigInt(this.limit)) throw new RangeError('count past the header');
    return Number(value);
  }

  async string(): Promise<string> {
    return (await this.bytes(await this.u64())).toString('utf8');
  }

  async skipValue(type: number): Promise<void> {
    if (type === 8) return void (await this.skip(await this.u64()));
    if (type !== 9) return this.skip(scalarBytes(type));
    const itemType = await this.u32();
    const count = await this.u64();
    if (itemType === 8) for (let i = 0; i < count; i++) await this.skip(await this.u64());
    else if (itemType === 9) throw new RangeError('nested arrays');
    else await this.skip(count * scalarBytes(itemType));
  }

  private async skip(count: number): Promise<void> {
    const position = this.start + this.at + count;
    if (position > this.limit) throw new RangeError('past the header');
    if (this.at + count <= this.buffer.length) this.at += count;
    else {
      this.start = position;
      this.buffer = Buffer.alloc(0);
      this.at = 0;
    }
  }

  private async fill(count: number): Promise<void> {
    const position = this.start + this.at;
    if (position + count > this.limit) throw new RangeError('past the header');
    const length = Math.min(Math.max(count, CHUNK), this.limit - position);
    const next = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(next, 0, length, position);
    if (bytesRead < count) throw new RangeError('file ends early');
    this.buffer = next.subarray(0, bytesRead);
    this.start = position;
    this.at = 0;
  }
}

function scalarBytes(type: number): number {
  const size = SCALAR_BYTES[type];
  if (size === undefined) throw new RangeError(`unknown GGUF type ${type}`);
  return size;
}
