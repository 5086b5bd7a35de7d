/** Where a model's files live under the data directory, whether they fit on its disk, and what a GGUF file looks like. */
import { mkdir, open, statfs } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InsufficientResourcesError, InvalidInputError, UnsupportedError } from '../errors.ts';
import { PRIVATE_DIR_MODE } from '../store/privateFiles.ts';
import { byteDescriptor } from './catalog.ts';

/** Free space a download leaves on the disk (half of it when a download of unknown length is checked on the way). */
export const DISK_MARGIN = 64 * 1024 * 1024;

export class ModelFiles {
  private readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** The folder of one model's files. */
  folder(id: string): string {
    return join(this.dataDir, 'models', id);
  }

  path(id: string, file: string): string {
    return join(this.folder(id), file);
  }

  /** Throws unless `bytes` more fit on the models' disk with `margin` to spare. */
  async ensureDisk(bytes: number, margin = DISK_MARGIN): Promise<void> {
    if (bytes <= 0 && margin === DISK_MARGIN) return;
    const dir = join(this.dataDir, 'models');
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const info = await statfs(dir);
    const free = Number(info.bavail) * Number(info.bsize);
    if (bytes + margin > free) {
      throw new InsufficientResourcesError(
        bytes > 0
          ? `Not enough free disk space: the model needs ${byteDescriptor(bytes).readable}, ${byteDescriptor(free).readable} is free.`
          : `The disk is nearly full (${byteDescriptor(free).readable} free); the download was stopped and its partial file deleted.`,
      );
    }
  }
}

/** A custom model's `unique` names its file when it is a URL or an absolute path. */
export function sourceOf(unique: string): string | undefined {
  if (/^(https?|file):\/\//i.test(unique)) return unique;
  return isAbsolute(unique) ? unique : undefined;
}

/** The file name a model downloaded from `source` is stored under (always safe, always .gguf). */
export function fileNameFor(source: string): string {
  let name: string;
  try {
    const path = /^https?:/i.test(source) ? new URL(source).pathname : /^file:/i.test(source) ? fileURLToPath(source) : source;
    name = decodeURIComponent(basename(path));
  } catch {
    name = '';
  }
  const safe = name.replace(/[^\w.\-]+/g, '_').replace(/^\.+/, '');
  return safe ? (safe.toLowerCase().endsWith('.gguf') ? safe : `${safe}.gguf`) : 'model.gguf';
}

export async function expectGguf(path: string): Promise<void> {
  let head: { buffer: Buffer; bytesRead: number };
  try {
    const handle = await open(path, 'r');
    try {
      head = await handle.read(Buffer.alloc(4), 0, 4, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Special files (/proc/self/mem, devices) stat as files and fail on read: the caller's input is wrong.
    throw new InvalidInputError(`Cannot read a model file at ${path}: ${(error as Error).message}`);
  }
  if (head.bytesRead < 4 || head.buffer.toString('latin1') !== 'GGUF') throw new UnsupportedError('The file is not a GGUF model.');
}
