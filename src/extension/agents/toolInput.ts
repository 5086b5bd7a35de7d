/**
 * Tool input, checked the way a model can act on: each problem names the field and what it must
 * be. VS Code validates against the declared schema too, but other callers of lm.invokeTool may not.
 */
import type { DeleteInput, SaveInput, SearchInput, UpdateInput } from './snippetOperations.ts';
import { overLimit } from '../../core/limits.ts';

/** Bad tool input, said the way the model can fix it. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export function record(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('The input must be a JSON object.');
  return input as Record<string, unknown>;
}

export function text(input: Record<string, unknown>, key: string, required: true): string;
export function text(input: Record<string, unknown>, key: string, required?: false): string | undefined;
export function text(input: Record<string, unknown>, key: string, required = false): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolInputError(`"${key}" must be a string.`);
  if (required && !value.trim()) throw new ToolInputError(`"${key}" must not be empty.`);
  return value;
}

export function strings(input: Record<string, unknown>, key: string): string[] | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ToolInputError(`"${key}" must be an array of strings.`);
  return value as string[];
}

export function integer(input: Record<string, unknown>, key: string): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ToolInputError(`"${key}" must be a number.`);
  return value;
}

export function parseSearch(input: unknown): SearchInput {
  const o = record(input);
  const query = text(o, 'query') ?? '';
  const tags = strings(o, 'tags');
  if (!query.trim() && !tags?.length) throw new ToolInputError('Give a "query", "tags", or both.');
  const language = text(o, 'language');
  const limit = integer(o, 'limit');
  return { query, ...(tags ? { tags } : {}), ...(language ? { language } : {}), ...(limit !== undefined ? { limit } : {}) };
}

export function parseSave(input: unknown): SaveInput {
  const o = record(input);
  const content = text(o, 'content', true);
  const name = text(o, 'name');
  const tags = strings(o, 'tags');
  const language = text(o, 'language');
  // The store's limits, said before the user is asked to confirm a save the host would refuse.
  const refused =
    overLimit('contentChars', content.length) ??
    overLimit('nameChars', name?.trim().length ?? 0) ??
    overLimit('tagsPerAsset', new Set(tags?.map((tag) => tag.trim().toLowerCase())).size) ??
    tags?.map((tag) => overLimit('tagChars', tag.trim().length)).find((reason) => reason !== undefined);
  if (refused !== undefined) throw new ToolInputError(`${refused}.`);
  return { content, ...(name ? { name } : {}), ...(tags ? { tags } : {}), ...(language ? { language } : {}) };
}

/** The revision the agent last read: `expectedRevision`, or `expected_revision` as the MCP tools name it. */
function expectedRevisionOf(o: Record<string, unknown>): string {
  const value = text(o, 'expectedRevision') ?? text(o, 'expected_revision');
  if (value === undefined || !value.trim()) {
    throw new ToolInputError('"expectedRevision" is required: the revision satchel_get_snippet gave when you read the snippet.');
  }
  return value.trim();
}

export function parseUpdate(input: unknown): UpdateInput {
  const o = record(input);
  const id = text(o, 'id', true);
  const expectedRevision = expectedRevisionOf(o);
  const content = text(o, 'content');
  const name = text(o, 'name');
  const tags = strings(o, 'tags');
  const language = text(o, 'language');
  const description = text(o, 'description');
  if (content === undefined && name === undefined && tags === undefined && language === undefined && description === undefined) {
    throw new ToolInputError('Nothing to change: give at least one of "content", "name", "tags", "language", "description".');
  }
  if (content !== undefined && !content.trim()) throw new ToolInputError('"content" must not be empty; to remove a snippet, use satchel_delete_snippet.');
  if (name !== undefined && !name.trim()) throw new ToolInputError('"name" must not be empty.');
  // The store's limits, said before the user is asked to confirm an update the host would refuse.
  const refused =
    overLimit('contentChars', content?.length ?? 0) ??
    overLimit('nameChars', name?.trim().length ?? 0) ??
    overLimit('annotationChars', description?.length ?? 0) ??
    overLimit('tagsPerAsset', new Set(tags?.map((tag) => tag.trim().toLowerCase())).size) ??
    tags?.map((tag) => overLimit('tagChars', tag.trim().length)).find((reason) => reason !== undefined);
  if (refused !== undefined) throw new ToolInputError(`${refused}.`);
  return {
    id,
    expectedRevision,
    ...(content !== undefined ? { content } : {}),
    ...(name !== undefined ? { name: name.trim() } : {}),
    ...(tags !== undefined ? { tags } : {}),
    ...(language ? { language } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

export function parseDelete(input: unknown): DeleteInput {
  const o = record(input);
  return { id: text(o, 'id', true), expectedRevision: expectedRevisionOf(o) };
}
