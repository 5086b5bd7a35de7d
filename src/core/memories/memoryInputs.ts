/**
 * What a memory is written from (an agent's create_pieces_memory or save_memory, the user's own
 * save), checked before anything is stamped or stored: the same bounds at every door.
 */
import { InvalidInputError, TooLargeError } from '../errors.ts';
import { LIMITS } from '../limits.ts';

/** Cited files a memory keeps at most (each is read when it is recalled). */
export const MAX_MEMORY_FILES = 64;
/** Links a memory keeps at most: as many as a snippet's websites. */
export const MAX_MEMORY_LINKS = LIMITS.websitesPerAsset;
/** A cited path's or a project's characters at most (longer than any file system's own limit). */
export const MAX_PATH_CHARS = 4096;

export interface MemoryInput {
  /** Its title (Pieces' `summary_description`). */
  readonly title: string;
  /** The note, in Markdown (Pieces' `summary`). */
  readonly summary: string;
  /** The project's root (absolute). */
  readonly project?: string | undefined;
  /** Files or folders it is about (absolute, or relative to the project). */
  readonly files?: readonly string[] | undefined;
  /** URLs and other references. */
  readonly links?: readonly string[] | undefined;
  /** The agent that writes it, as it names itself. */
  readonly client?: string | undefined;
  readonly tags?: readonly string[] | undefined;
}

/** The input trimmed, its lists once each, and checked; throws InvalidInputError or TooLargeError. */
export function checkedMemory(input: MemoryInput): MemoryInput {
  const title = input.title.trim();
  if (title === '') throw new InvalidInputError('A memory needs a title (summary_description)');
  if (input.summary.trim() === '') throw new InvalidInputError('A memory needs its text (summary)');
  const project = input.project?.trim() || undefined;
  if (project !== undefined && project.length > MAX_PATH_CHARS) throw new TooLargeError(`A project path has at most ${MAX_PATH_CHARS} characters`);
  const files = distinct(input.files ?? []);
  if (files.length > MAX_MEMORY_FILES) throw new TooLargeError(`A memory cites at most ${MAX_MEMORY_FILES} files (${files.length} given)`);
  const longPath = files.find((path) => path.length > MAX_PATH_CHARS);
  if (longPath !== undefined) throw new TooLargeError(`A file path has at most ${MAX_PATH_CHARS} characters`);
  const links = distinct(input.links ?? []);
  if (links.length > MAX_MEMORY_LINKS) throw new TooLargeError(`A memory keeps at most ${MAX_MEMORY_LINKS} links (${links.length} given)`);
  const longLink = links.find((link) => link.length > LIMITS.urlChars);
  if (longLink !== undefined) throw new TooLargeError(`A link has at most ${LIMITS.urlChars} characters`);
  const client = input.client?.trim().slice(0, 200) || undefined;
  return { title, summary: input.summary, ...(project ? { project } : {}), files, links, ...(client ? { client } : {}), ...(input.tags ? { tags: input.tags } : {}) };
}

/** Whether a link is also a website of the asset (http or https). */
export function isWebLink(link: string): boolean {
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function distinct(texts: readonly string[]): string[] {
  return [...new Set(texts.map((text) => text.trim()).filter((text) => text !== ''))];
}
