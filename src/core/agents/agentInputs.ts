/**
 * What an agent may write, checked before anything is stored or proposed: a new snippet (save) and
 * an edit of one (update). The same checks run whether the write counts at once or waits for the
 * user's review, so a proposal the user accepts is one the store takes (the limits of
 * core/limits.ts, one per kind, as through every other door).
 */
import { InvalidInputError } from '../errors.ts';
import { checkContent, checkLimit, checkSeededTags, checkSeededWebsites } from '../limits.ts';
import { specificFromLanguageName } from '../classify/languages.ts';
import { SATCHEL_APPLICATION } from '../assets/origin.ts';
import type { ClassificationSpecific, Seed } from '../piecesTypes.ts';
import type { AssetEdit } from '../assets/assetEdits.ts';
import { MemoryFactsStore, type MemoryFacts } from '../memories/memoryFacts.ts';
import type { Database } from '../store/database.ts';

/** A snippet an agent saves. */
export interface AgentSave {
  readonly content: string;
  readonly name?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  /** A language name or extension ("TypeScript", "py"); detected from the content when absent. */
  readonly language?: string | undefined;
  /** Related urls (http or https). */
  readonly websites?: readonly string[] | undefined;
  /** Present when what is saved is a memory (core/memories): its project, files and links. */
  readonly memory?: MemoryFacts | undefined;
}

/** An agent's edit of a snippet: each field left out stays as it is. */
export interface AgentEdit {
  readonly content?: string | undefined;
  readonly name?: string | undefined;
  /** A language name or extension. */
  readonly language?: string | undefined;
  /** The whole set of tags (replaces the snippet's). */
  readonly tags?: readonly string[] | undefined;
  /** '' removes the description. */
  readonly description?: string | undefined;
}

/** The language an agent named, as a stored classification; refused, naming what it may say, when unknown. */
export function languageOfName(name: string): ClassificationSpecific {
  const specific = specificFromLanguageName(name);
  if (specific === undefined) {
    throw new InvalidInputError(`Unknown language ${JSON.stringify(name)}: give a name such as "TypeScript" or "Python", or an extension such as "ts" or "py"`);
  }
  return specific;
}

function checkName(name: string | undefined): void {
  if (name === undefined) return;
  if (name.trim() === '') throw new InvalidInputError('A snippet needs a non-empty name');
  checkLimit('nameChars', name.trim().length);
}

function checkTags(tags: readonly string[] | undefined): void {
  if (tags === undefined) return;
  if (tags.some((tag) => tag.trim() === '')) throw new InvalidInputError('A tag needs a non-empty text');
  checkSeededTags(tags);
}

function checkContentText(content: string): void {
  if (content.trim() === '') throw new InvalidInputError('The content is empty (or only white space); to remove a snippet, delete it');
  checkContent({ text: content });
}

/** The save cleaned (name and tags trimmed, tags once each) and checked; throws InvalidInputError or LimitExceededError. */
export function checkedSave(save: AgentSave): AgentSave {
  checkContentText(save.content);
  checkName(save.name);
  checkTags(save.tags);
  if (save.language !== undefined) languageOfName(save.language);
  const websites = save.websites ?? [];
  for (const url of websites) {
    if (!isWebUrl(url)) throw new InvalidInputError(`${JSON.stringify(url.slice(0, 200))} is not an http or https url`);
  }
  checkSeededWebsites(websites.map((url) => ({ url })));
  const name = save.name?.trim();
  return {
    content: save.content,
    ...(name ? { name } : {}),
    ...(save.tags !== undefined ? { tags: distinctTags(save.tags) } : {}),
    ...(save.language !== undefined ? { language: save.language } : {}),
    ...(websites.length > 0 ? { websites: [...new Set(websites.map((url) => url.trim()))] } : {}),
    ...(save.memory !== undefined ? { memory: save.memory } : {}),
  };
}

/** The edit checked (at least one field; each within its limit); throws InvalidInputError or LimitExceededError. */
export function checkedEdit(edit: AgentEdit): AgentEdit {
  const given = (['content', 'name', 'language', 'tags', 'description'] as const).filter((key) => edit[key] !== undefined);
  if (given.length === 0) throw new InvalidInputError('Nothing to change: give at least one of content, name, language, tags, description');
  if (edit.content !== undefined) checkContentText(edit.content);
  checkName(edit.name);
  checkTags(edit.tags);
  if (edit.language !== undefined) languageOfName(edit.language);
  if (edit.description !== undefined) checkLimit('annotationChars', edit.description.length);
  return {
    ...(edit.content !== undefined ? { content: edit.content } : {}),
    ...(edit.name !== undefined ? { name: edit.name.trim() } : {}),
    ...(edit.language !== undefined ? { language: edit.language } : {}),
    ...(edit.tags !== undefined ? { tags: distinctTags(edit.tags) } : {}),
    ...(edit.description !== undefined ? { description: edit.description } : {}),
  };
}

/** An agent's (checked) edit as the assets area takes it. */
export function assetEditOf(edit: AgentEdit): AssetEdit {
  return {
    ...(edit.content !== undefined ? { content: { text: edit.content } } : {}),
    ...(edit.name !== undefined ? { name: edit.name } : {}),
    ...(edit.language !== undefined ? { language: languageOfName(edit.language) } : {}),
    ...(edit.tags !== undefined ? { tags: edit.tags } : {}),
    ...(edit.description !== undefined ? { description: edit.description } : {}),
  };
}

/** An agent's (checked) save as the Seed the assets area creates from. */
export function seedOf(save: AgentSave): Seed {
  const specific = save.language !== undefined ? languageOfName(save.language) : undefined;
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: SATCHEL_APPLICATION,
      format: { fragment: { string: { raw: save.content }, ...(specific ? { metadata: { ext: specific } } : {}) } },
      metadata: {
        ...(save.name ? { name: save.name } : {}),
        mechanism: 'MANUAL',
        tags: (save.tags ?? []).map((text) => ({ text })),
        websites: (save.websites ?? []).map((url) => ({ url, name: new URL(url).host || url })),
      },
    },
  };
}

/** What a save writes besides its asset, in the create's transaction: a memory's facts, when it is one. */
export function memoryWrite(database: Database, save: AgentSave): ((id: string) => void) | undefined {
  const memory = save.memory;
  if (memory === undefined) return undefined;
  return (id) => new MemoryFactsStore(database).put(id, memory);
}

/** Two edits of one snippet by one agent, as one: the later one's fields win. */
export function mergedEdit(earlier: AgentEdit, later: AgentEdit): AgentEdit {
  return { ...earlier, ...later };
}

function distinctTags(tags: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const tag of tags) if (!seen.has(tag.trim().toLowerCase())) seen.set(tag.trim().toLowerCase(), tag.trim());
  return [...seen.values()];
}

function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
