/**
 * A Pieces library's assets and conversations as import records: each asset a snippet that keeps
 * its Pieces id (so an import run again finds it and updates it, never adds it twice), its name,
 * its original format's content (fragment or file; text, or bytes for an image), language, tags,
 * websites, description and other annotations, anchors, created and updated times, favorite and
 * the application that saved it; each conversation keeps its id, name, times, linked snippets and
 * websites, and its messages with their ids, roles and times. Pure: JSON in, records out.
 */
import type { Application, ClassificationSpecific } from '../piecesTypes.ts';
import { isKnownSpecific } from '../assets/specifics.ts';
import { specificFromLanguageName } from '../classify/languages.ts';
import { bytesOfTransferable, textOfBytes, textOfString } from '../assets/content.ts';
import type { ExactAnchor, ExactAnnotation } from '../assets/exactAttachments.ts';
import { sortedTexts, sortedWebsites } from '../sync/vaultFormat.ts';
import { byCreated, type VaultConversation, type VaultMessage } from '../sync/vaultConversations.ts';
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { idOf, itemsOf, timeOf, type Json, type PiecesIndex } from './piecesIndex.ts';

const ANNOTATION_TYPES = ['UNKNOWN', 'DESCRIPTION', 'COMMENT', 'DOCUMENTATION', 'SUMMARY', 'EXPLANATION', 'GIT_COMMIT'] as const;
const ANCHOR_TYPES = ['UNKNOWN', 'FILE', 'DIRECTORY'] as const;
const ROLES = ['UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT'] as const;

/** A part of an import: a file name for the summary (and the import's author) and its records. */
export function piecesPart(source: string, assets: readonly unknown[], conversations: readonly PiecesConversation[], index: PiecesIndex): ParsedFile {
  const collector = new SnippetCollector(source);
  for (const [at, asset] of assets.entries()) {
    const before = collector.snippets.length;
    addAsset(collector, asset, index, at);
    // A conversation links to the snippets that are imported (a link to one that failed would never read back).
    if (collector.snippets.length > before) index.addAssets([idOf(asset)]);
  }
  const records: VaultConversation[] = [];
  for (const conversation of conversations) {
    const record = conversationRecord(conversation, index, (id) => index.assetKnown(id));
    if (typeof record === 'string') collector.fail(conversationLabel(conversation.conversation), record);
    else records.push(record);
  }
  return { ...collector.result('pieces'), ...(records.length > 0 ? { conversations: records } : {}) };
}

/** A conversation and its messages (Pieces serves them apart: GET /conversation/{id}/messages). */
export interface PiecesConversation {
  readonly conversation: unknown;
  readonly messages: readonly unknown[];
}

function addAsset(collector: SnippetCollector, asset: unknown, index: PiecesIndex, at: number): void {
  const label = isRecord(asset) && typeof asset.name === 'string' && asset.name.trim() !== '' ? asset.name : `asset ${idOf(asset) || at + 1}`;
  if (!isRecord(asset) || idOf(asset) === '') return collector.fail(label, 'not a Pieces asset (no id)');
  // Deleted in Pieces (an export may keep it): not brought over.
  if (asset.deleted !== undefined) return;
  const formats = index.relatedOf(asset, 'format');
  const originalId = idOf(asset.original);
  const inline = isRecord(asset.original) && isRecord(asset.original.reference) ? asset.original.reference : undefined;
  const original = formats.find((format) => format.id === originalId) ?? inline ?? formats.find((format) => contentOf(format) !== undefined);
  const content = original ? contentOf(original) : undefined;
  if (original === undefined || content === undefined) {
    return collector.fail(label, 'its original format carries no content (read with transferables=true, or exported in preserve mode)');
  }
  const created = timeOf(asset.created, new Date(0).toISOString());
  const annotations = index
    .relatedOf(asset, 'annotation')
    .filter((annotation) => typeof annotation.text === 'string' && annotation.deleted === undefined)
    .sort((a, b) => (timeOf(a.created, created) < timeOf(b.created, created) ? -1 : 1));
  const descriptionAt = annotations.findIndex((annotation) => annotation.type === 'DESCRIPTION');
  const description = descriptionAt >= 0 ? (annotations[descriptionAt]!.text as string) : undefined;
  const application = applicationOf(original.application);
  collector.add(label, {
    name: stringOr(asset.name),
    text: content.text,
    language: languageOf(original, content.bytes !== undefined),
    tags: index.relatedOf(asset, 'tag').flatMap((tag) => (typeof tag.text === 'string' ? [tag.text] : [])),
    description,
    record: {
      id: idOf(asset),
      created,
      updated: timeOf(asset.updated, created),
      favorited: asset.favorited === true,
      websites: index.relatedOf(asset, 'website').flatMap((site) => (typeof site.url === 'string' && site.url.trim() !== '' ? [{ url: site.url, name: stringOr(site.name) || site.url }] : [])),
      ...(content.bytes !== undefined ? { bytes: content.bytes } : {}),
      ...(application !== undefined ? { application } : {}),
      annotations: annotations.filter((_, at) => at !== descriptionAt).map((annotation) => annotationRecord(annotation, created)),
      anchors: index.relatedOf(asset, 'anchor').flatMap((anchor) => anchorRecord(anchor, index, created)),
    },
  });
}

/** A format's content: its text, or its bytes when they are not text (an image). */
function contentOf(format: Json): { text: string; bytes?: number[] } | undefined {
  for (const part of [format.fragment, format.file]) {
    if (!isRecord(part)) continue;
    try {
      const text = isRecord(part.string) ? textOfString(part.string) : undefined;
      if (text !== undefined) return { text };
    } catch {
      // A malformed data URL: the part's bytes, if any, are read instead.
    }
    const bytes = isRecord(part.bytes) ? bytesOfTransferable(part.bytes) : undefined;
    if (Array.isArray(bytes) && bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
      const text = textOfBytes(bytes);
      return text !== '' && !isImage(format) ? { text } : { text: '', bytes };
    }
  }
  return undefined;
}

function isImage(format: Json): boolean {
  return isRecord(format.classification) && format.classification.generic === 'IMAGE';
}

/** The language Pieces classified the format as; a value Satchel does not know is looked up by name, else plain text (or binary). */
function languageOf(format: Json, binary: boolean): ClassificationSpecific {
  const specific = isRecord(format.classification) ? stringOr(format.classification.specific) : '';
  const ext = isRecord(format.fragment) && isRecord(format.fragment.metadata) ? stringOr(format.fragment.metadata.ext) : '';
  for (const given of [specific, ext]) {
    if (isKnownSpecific(given)) return given;
    const named = specificFromLanguageName(given);
    if (named !== undefined) return named;
  }
  return (binary ? 'bin' : 'txt') as ClassificationSpecific;
}

/** The application that saved the format, as the wire requires it (fields a library left out filled in). */
function applicationOf(value: unknown): Application | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.name !== 'string') return undefined;
  return {
    id: value.id,
    name: value.name,
    version: stringOr(value.version),
    platform: stringOr(value.platform, 'UNKNOWN'),
    onboarded: value.onboarded === true,
    privacy: stringOr(value.privacy, 'OPEN'),
  };
}

function annotationRecord(annotation: Json, fallback: string): ExactAnnotation {
  const type = ANNOTATION_TYPES.find((known) => known === annotation.type) ?? 'UNKNOWN';
  const created = timeOf(annotation.created, fallback);
  // One description per snippet (Descriptions reads the first linked): a second is kept as a comment.
  return { id: idOf(annotation), type: type === 'DESCRIPTION' ? 'COMMENT' : type, text: annotation.text as string, created, updated: timeOf(annotation.updated, created) };
}

/** The anchor with the path of its first point; none when no point names a path. */
function anchorRecord(anchor: Json, index: PiecesIndex, fallback: string): ExactAnchor[] {
  const point = index.relatedOf(anchor, 'anchorPoint').find((candidate) => typeof candidate.fullpath === 'string' && candidate.fullpath !== '');
  if (point === undefined) return [];
  const created = timeOf(anchor.created, fallback);
  const name = stringOr(anchor.name);
  const platform = stringOr(point.platform);
  return [
    {
      id: idOf(anchor),
      type: ANCHOR_TYPES.find((known) => known === anchor.type) ?? 'UNKNOWN',
      fullpath: point.fullpath as string,
      pointId: idOf(point),
      created,
      updated: timeOf(anchor.updated, created),
      ...(name !== '' ? { name } : {}),
      ...(platform !== '' ? { platform } : {}),
    },
  ];
}

function conversationLabel(conversation: unknown): string {
  return isRecord(conversation) && typeof conversation.name === 'string' && conversation.name !== '' ? conversation.name : `conversation ${idOf(conversation)}`;
}

/**
 * The conversation as the store keeps it (ConversationRecords), or why it cannot be: its linked
 * snippets only those this import brings or already holds, so the record reads back the same.
 */
function conversationRecord({ conversation, messages }: PiecesConversation, index: PiecesIndex, assetKnown: (id: string) => boolean): VaultConversation | string {
  if (!isRecord(conversation) || idOf(conversation) === '') return 'not a Pieces conversation (no id)';
  const created = timeOf(conversation.created, new Date(0).toISOString());
  const kept = messages.filter(isRecord).filter((message) => idOf(message) !== '' && message.deleted === undefined);
  const name = stringOr(conversation.name);
  return {
    id: idOf(conversation),
    ...(name !== '' ? { name } : {}),
    type: 'COPILOT',
    favorited: conversation.favorited === true,
    assets: sortedTexts([...new Set(itemsOf(conversation.assets).map(idOf).filter((id) => id !== '' && assetKnown(id)))]),
    websites: sortedWebsites(
      index.relatedOf(conversation, 'website').flatMap((site) => (typeof site.url === 'string' && site.url.trim() !== '' ? [{ url: site.url, name: stringOr(site.name) || site.url }] : [])),
    ),
    created,
    updated: timeOf(conversation.updated, created),
    messages: kept.map((message) => messageRecord(message, created)).sort(byCreated),
  };
}

function messageRecord(message: Json, fallback: string): VaultMessage {
  const created = timeOf(message.created, fallback);
  let text = '';
  try {
    text = isRecord(message.fragment) && isRecord(message.fragment.string) ? (textOfString(message.fragment.string) ?? '') : '';
  } catch {
    // A malformed data URL: the message is kept, empty.
  }
  const sentiment = stringOr(message.sentiment);
  return {
    id: idOf(message),
    role: ROLES.find((known) => known === message.role) ?? 'UNKNOWN',
    ...(sentiment !== '' ? { sentiment } : {}),
    created,
    updated: timeOf(message.updated, created),
    text,
  };
}
