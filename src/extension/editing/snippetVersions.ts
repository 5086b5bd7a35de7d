/**
 * The versions of a snippet's documents as VS Code's file service sees them, apart from VS Code.
 *
 * VS Code guards a save with the `stat` it took when it loaded the document: before writing it
 * stats again, and reports "the content of the file is newer" (Compare / Overwrite) when the
 * mtime moved on and the size differs (src/vs/platform/files/common/fileService.ts,
 * validateWriteFile). So:
 *
 * - a document's **mtime** changes exactly when its text changes elsewhere (a rename or new tags
 *   leave the code's document as it is: no reload, no conflict), and only ever grows, even for two
 *   writes in one millisecond: it is the host's update time, or one more than the last one given;
 * - a text changed elsewhere to the same length (one character fixed) would pass VS Code's size
 *   check, so until the document loads it its size is reported one byte larger;
 * - the write itself is conditional (If-Match) on the revision VS Code last saw: a change landing
 *   between VS Code's stat and the write is refused by the host, never overwritten. When only
 *   other parts of the snippet changed meanwhile (name, tags, the other document), the write goes
 *   on at the current revision, which keeps them;
 * - Overwrite (VS Code saves without its check) stats first too, so it writes over exactly the
 *   version the user was shown.
 *
 * Operations on one document run one at a time, so a stat, a read and a write never interleave.
 */
import { createHash } from 'node:crypto';
import { ClientError } from '../../client/errors.ts';
import type { SnippetPart } from './snippetPaths.ts';

/** A snippet's state on the host, without its content. */
export interface SnippetHead {
  readonly revision: string;
  /** Milliseconds since the epoch. */
  readonly updated: number;
  readonly created: number;
  /** Content that is not text (an image): shown, not edited. */
  readonly readonly: boolean;
  /** What the snippet's documents are named after. */
  readonly name: string;
  readonly language: string | undefined;
}

export interface PartRead extends SnippetHead {
  readonly bytes: Uint8Array;
}

/** What the versions need of the host. */
export interface SnippetStore {
  head(id: string): Promise<SnippetHead>;
  /** One document's bytes, and the revision they were read at. */
  read(id: string, part: SnippetPart): Promise<PartRead>;
  /**
   * Writes one document's text and nothing else of the snippet; refused with a ClientError whose
   * `staleRevision` is set when `expectedRevision` is given and the snippet moved on. Resolves
   * once the host has the write on disk.
   */
  write(id: string, part: SnippetPart, text: string, expectedRevision: string | undefined): Promise<SnippetHead>;
}

export interface SnippetStat {
  readonly mtime: number;
  readonly ctime: number;
  readonly size: number;
  readonly readonly: boolean;
  readonly name: string;
  readonly language: string | undefined;
}

/** The snippet changed elsewhere while this save was on its way (nothing was written). */
export class SnippetChangedError extends Error {
  constructor(id: string) {
    super(`The snippet ${id} changed elsewhere while it was being saved; nothing was written. Save again to compare.`);
    this.name = 'SnippetChangedError';
  }
}

interface Version {
  readonly revision: string;
  readonly hash: string;
  readonly size: number;
  readonly mtime: number;
}

interface DocumentState {
  /** The newest version VS Code was shown (by a stat, a read or a write). */
  latest?: Version;
  /** The version the document last loaded or saved. */
  loaded?: Version;
  lastMtime: number;
  /**
   * What a stat had to read (the text changed since VS Code last saw it), kept for the operation
   * that follows: opening a document is a stat then a read, and a 1 MiB text need not cross twice.
   */
  unread?: PartRead | undefined;
  queue: Promise<unknown>;
}

const decoder = new TextDecoder();

export class SnippetVersions {
  private readonly store: SnippetStore;
  private readonly documents = new Map<string, DocumentState>();

  constructor(store: SnippetStore) {
    this.store = store;
  }

  /** The snippet's state on the host now (no document's state is touched). */
  head(id: string): Promise<SnippetHead> {
    return this.store.head(id);
  }

  /** `known`: the head the caller just read, so it is not asked for twice. */
  stat(id: string, part: SnippetPart, known?: SnippetHead): Promise<SnippetStat> {
    return this.run(id, part, async (state) => {
      const head = known ?? (await this.store.head(id));
      let version = state.latest;
      if (version?.revision !== head.revision) {
        state.unread = await this.store.read(id, part);
        version = this.observe(state, state.unread);
      }
      const loaded = state.loaded;
      // VS Code lets a same-size change through its check; one byte more makes it a conflict.
      const size = loaded && version.hash !== loaded.hash && version.size === loaded.size ? version.size + 1 : version.size;
      return { mtime: version.mtime, ctime: head.created, size, readonly: part === 'content' && head.readonly, name: head.name, language: head.language };
    });
  }

  /**
   * `load: false`: a read that is not the document loading, such as the stored side VS Code's
   * Compare reads while the document has unsaved edits. It leaves the conflict standing: the next
   * save still brings up Compare / Overwrite, a same-length change included.
   */
  read(id: string, part: SnippetPart, { load = true }: { load?: boolean } = {}): Promise<Uint8Array> {
    return this.run(id, part, async (state, unread) => {
      const read = unread && (await this.store.head(id)).revision === unread.revision ? unread : await this.store.read(id, part);
      const version = this.observe(state, read);
      if (load) state.loaded = version;
      return read.bytes;
    });
  }

  write(id: string, part: SnippetPart, bytes: Uint8Array): Promise<void> {
    return this.run(id, part, async (state) => {
      const text = decoder.decode(bytes);
      // What VS Code last saw; a document never read (another extension's fs.writeFile) writes unconditionally.
      const shown = state.latest ?? state.loaded;
      let expected = shown?.revision;
      for (let attempt = 0; ; attempt++) {
        try {
          const head = await this.store.write(id, part, text, expected);
          const written: Version = { revision: head.revision, hash: digest(bytes), size: bytes.byteLength, mtime: this.nextMtime(state, head.updated) };
          state.latest = written;
          state.loaded = written;
          return;
        } catch (error) {
          if (!(error instanceof ClientError && error.staleRevision) || attempt >= 3) throw error;
          const current = await this.store.read(id, part);
          // Only other parts changed (a rename, tags, the other document): this one is as VS Code
          // saw it, so write on the current revision, which keeps those changes.
          if (shown && digest(current.bytes) === shown.hash) {
            expected = current.revision;
            continue;
          }
          // Remembered, so the next save's stat shows VS Code the change (Compare / Overwrite).
          this.observe(state, current);
          throw new SnippetChangedError(id);
        }
      }
    });
  }

  /** Drops what is known of a document nobody has open. */
  forget(id: string, part: SnippetPart): void {
    this.documents.delete(key(id, part));
  }

  /** Records a version read from the host as the newest VS Code was shown. */
  private observe(state: DocumentState, read: PartRead): Version {
    const latest = state.latest;
    const hash = digest(read.bytes);
    if (latest && latest.revision === read.revision) return latest;
    // A revision that left this document as it was keeps its time: VS Code sees no change.
    const version: Version =
      latest && latest.hash === hash
        ? { ...latest, revision: read.revision }
        : { revision: read.revision, hash, size: read.bytes.byteLength, mtime: this.nextMtime(state, read.updated) };
    state.latest = version;
    return version;
  }

  private nextMtime(state: DocumentState, updated: number): number {
    state.lastMtime = Math.max(Number.isFinite(updated) ? updated : 0, state.lastMtime + 1);
    return state.lastMtime;
  }

  private run<T>(id: string, part: SnippetPart, work: (state: DocumentState, unread: PartRead | undefined) => Promise<T>): Promise<T> {
    const k = key(id, part);
    let state = this.documents.get(k);
    if (!state) {
      state = { lastMtime: 0, queue: Promise.resolve() };
      this.documents.set(k, state);
    }
    const current = state;
    const result = current.queue.then(() => {
      // What a stat read is for the operation right after it only (the read of an opening document).
      const unread = current.unread;
      current.unread = undefined;
      return work(current, unread);
    });
    current.queue = result.catch(() => undefined);
    return result;
  }
}

function key(id: string, part: SnippetPart): string {
  return `${part}\u0000${id}`;
}

function digest(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64');
}
