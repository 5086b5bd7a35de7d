/**
 * The input of one `git fast-import` writing a sync's commits (vaultRepo.ts), made a bounded chunk
 * at a time as git takes it. The chunks are written into two buffers made once and used in turn
 * (issue 34): a new buffer per chunk was garbage V8 frees only at a full collection, which it starts
 * once such memory has grown by about 64 MB, so a first sync of 100k snippets held 40–70 MB of
 * stale chunks at any time, and the allocator kept the pages after they were freed.
 */
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { VAULT_ATTRIBUTES, VAULT_ATTRIBUTES_TEXT, VAULT_MARKER, VAULT_MARKER_TEXT, type VaultFile } from './vaultFormat.ts';

/**
 * Time spent reading and serializing records between turns of the event loop while a commit's
 * stream is made. Counted in records (500) it held the host 350 ms at a time: a record read again
 * with its findings costs about 0.7 ms here (test/reliability/syncHealth.test.ts).
 */
const STREAM_SLICE_MS = 10;
/** Bytes of fast-import's input made before they are handed to git: a first sync's whole library is never held at once. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

/** A folder already in the repository, or written by an earlier commit of the same fast-import: its tree id. */
export interface FolderTree {
  readonly tree: string;
}

/** A folder a commit changes: its files, a tree it is (FolderTree), or undefined (removed). */
export type FolderChange = readonly [dir: string, folder: readonly VaultFile[] | FolderTree | undefined];

/** One commit to write: its parent, and the folders it changes from the parent's tree, by path, made as they are streamed. */
export interface CommitPlan {
  readonly ref: string;
  readonly parent: string | undefined;
  /** Made when the commits before this one are streamed, when it is a function (it may name records they read). */
  readonly message: string | (() => string);
  readonly changes: Iterable<FolderChange> | AsyncIterable<FolderChange>;
}

/**
 * Fills one of two buffers of STREAM_CHUNK_BYTES and hands out what it holds (`take`); the next take
 * fills the other, and the one after the first again. So a chunk's bytes stay as they were until the
 * chunk after the next is made: the reader (Git.run) writes each chunk whole before it asks for
 * the one after the next.
 */
class ChunkWriter {
  private readonly buffers = [Buffer.allocUnsafe(STREAM_CHUNK_BYTES), Buffer.allocUnsafe(STREAM_CHUNK_BYTES)];
  private current = 0;
  private used = 0;
  /** A file larger than a buffer, handed out as it is (its own bytes), after what was written before it. */
  private large: Buffer | undefined;

  get size(): number {
    return this.used;
  }

  /** Whether `bytes` more fit in this chunk. */
  fits(bytes: number): boolean {
    return this.used + bytes <= STREAM_CHUNK_BYTES;
  }

  text(text: string): void {
    this.used += this.buffers[this.current]!.write(text, this.used, 'utf8');
  }

  bytes(data: Buffer): void {
    this.used += data.copy(this.buffers[this.current]!, this.used);
  }

  /** A file over the buffer's size: handed out after this chunk, as the next one. */
  setLarge(data: Buffer): void {
    this.large = data;
  }

  /** What was written since the last take (a view of the buffer, valid until the take after the next), then the large file if one is waiting. */
  *take(): Generator<Buffer> {
    if (this.used > 0) {
      const chunk = this.buffers[this.current]!.subarray(0, this.used);
      this.current = 1 - this.current;
      this.used = 0;
      yield chunk;
    }
    const large = this.large;
    this.large = undefined;
    if (large !== undefined) yield large;
  }
}

function safeName(name: string): string {
  return name.replace(/[<>\n]/g, '').slice(0, 64) || 'a machine';
}

/**
 * The input of one fast-import writing `plans`, in chunks of up to STREAM_CHUNK_BYTES made as git
 * reads them. Each commit's files go inline, as its changes are made: nothing of a record is kept
 * once its bytes are copied into a chunk. The commits are written in order, so a later one may name
 * a folder an earlier one wrote by its tree (FolderTree). A chunk handed out is a view of a buffer
 * written again two chunks later (ChunkWriter): read it before asking for the one after the next.
 */
export async function* fastImportStream(plans: readonly CommitPlan[]): AsyncGenerator<Buffer> {
  const writer = new ChunkWriter();
  // Every piece is smaller than a chunk but a large file's bytes (then handed out alone).
  const pending: Array<string | Buffer> = [];
  const flush = function* (): Generator<Buffer> {
    for (const piece of pending) {
      const bytes = typeof piece === 'string' ? Buffer.byteLength(piece, 'utf8') : piece.length;
      if (bytes > STREAM_CHUNK_BYTES) {
        writer.setLarge(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
        yield* writer.take();
        continue;
      }
      if (!writer.fits(bytes)) yield* writer.take();
      if (typeof piece === 'string') writer.text(piece);
      else writer.bytes(piece);
    }
    pending.length = 0;
  };
  const file = (path: string, data: Buffer): void => void pending.push(`M 100644 inline ${path}\ndata ${data.length}\n`, data, '\n');
  const when = Math.floor(Date.now() / 1000);
  let sliceStarted = performance.now();
  for (const plan of plans) {
    // Made now, when the commits before it are written (it may name records they read).
    const message = Buffer.from(typeof plan.message === 'string' ? plan.message : plan.message(), 'utf8');
    pending.push(`reset ${plan.ref}\ncommit ${plan.ref}\ncommitter Satchel on ${safeName(hostname())} <sync@satchel.invalid> ${when} +0000\ndata ${message.length}\n`, message, '\n');
    if (plan.parent !== undefined) pending.push(`from ${plan.parent}\n`);
    file(VAULT_MARKER, Buffer.from(VAULT_MARKER_TEXT));
    file(VAULT_ATTRIBUTES, Buffer.from(VAULT_ATTRIBUTES_TEXT));
    for await (const [dir, folder] of plan.changes) {
      pending.push(`D ${dir}\n`);
      // fast-import finds a tree an earlier commit of its own stream wrote, as well as one in the repository.
      if (folder !== undefined && 'tree' in folder) pending.push(`M 040000 ${folder.tree} ${dir}\n`);
      else for (const one of folder ?? []) file(`${dir}/${one.name}`, one.data);
      yield* flush();
      // A first sync streams the whole library: the host answers between slices of it.
      if (performance.now() - sliceStarted >= STREAM_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    pending.push('\n');
  }
  pending.push('done\n');
  yield* flush();
  yield* writer.take();
}
