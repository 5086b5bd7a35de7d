/**
 * Conversations in the vault (docs/sync.md), beside the assets:
 *
 *   conversations/<shard>/<id>/conversation.md        front matter: name, type, favorite, linked
 *                                                      snippets and websites, times
 *   conversations/<shard>/<id>/message-<id>.md        one per message: role, sentiment, times; the text
 *
 * A message in a file of its own means two machines adding messages to one conversation add files,
 * and a long conversation's change is the messages that changed. Messages are ordered by their
 * `created` time (then id), as the store orders them. Pure: records to files and back.
 */
import { readFrontMatter, writeFrontMatter } from './frontMatter.ts';
import { YamlError, type YamlText, type YamlValue } from './yamlReader.ts';
import { idSegment, shardOf, sortedTexts, sortedWebsites, vaultTime, VaultFormatError, type VaultFile, type VaultWebsite } from './vaultFormat.ts';

export const CONVERSATIONS_DIR = 'conversations';
export const CONVERSATION_FILE = 'conversation.md';
const MESSAGE_PREFIX = 'message-';

export interface VaultMessage {
  readonly id: string;
  /** USER, ASSISTANT or SYSTEM. */
  readonly role: string;
  readonly sentiment?: string | undefined;
  readonly created: string;
  readonly updated: string;
  readonly text: string;
}

export interface VaultConversation {
  readonly id: string;
  readonly name?: string | undefined;
  /** COPILOT, … (the interface's conversation type). */
  readonly type: string;
  readonly favorited: boolean;
  /** Ids of the snippets it is linked to, sorted. */
  readonly assets: readonly string[];
  readonly websites: readonly VaultWebsite[];
  readonly created: string;
  readonly updated: string;
  /** In conversation order. */
  readonly messages: readonly VaultMessage[];
}

export function conversationDir(id: string): string {
  return `${CONVERSATIONS_DIR}/${shardOf(id)}/${idSegment(id)}`;
}

export function byCreated(a: VaultMessage, b: VaultMessage): number {
  return a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The conversation's files, in name order, made anew at each call: a sync holds every record of a first
 * sync at once, and keeping each one's bytes with it doubled what it held (issue 34); the folder's
 * id is what is kept (syncKinds.ts oidOf).
 */
export function conversationFiles(conversation: VaultConversation): readonly VaultFile[] {
  return makeConversationFiles(conversation);
}

function makeConversationFiles(conversation: VaultConversation): VaultFile[] {
  const head = writeFrontMatter(
    [
      ['id', conversation.id],
      ['name', conversation.name],
      ['type', conversation.type],
      ['favorited', conversation.favorited || undefined],
      ['assets', conversation.assets.length > 0 ? sortedTexts(conversation.assets) : undefined],
      ['websites', conversation.websites.length > 0 ? sortedWebsites(conversation.websites).map((site) => ({ url: site.url, name: site.name })) : undefined],
      ['created', conversation.created],
      ['updated', conversation.updated],
    ],
    '',
  );
  const files: VaultFile[] = [{ name: CONVERSATION_FILE, data: Buffer.from(head, 'utf8') }];
  for (const message of conversation.messages) {
    const text = writeFrontMatter(
      [
        ['id', message.id],
        ['role', message.role],
        ['sentiment', message.sentiment],
        ['created', message.created],
        ['updated', message.updated],
      ],
      message.text,
    );
    files.push({ name: `${MESSAGE_PREFIX}${idSegment(message.id)}.md`, data: Buffer.from(text, 'utf8') });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function text(value: YamlValue | undefined): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function time(value: YamlValue | undefined, fallback: string): string {
  return vaultTime(value) ?? fallback;
}

/** A file's front matter: `data` for times and flags, `texts` (as written) for every string field. */
function front(id: string, file: VaultFile): { data: Readonly<Record<string, YamlValue>>; texts: Readonly<Record<string, YamlText>>; body: string } {
  try {
    const parsed = readFrontMatter(file.data.toString('utf8'));
    if (parsed === undefined) throw new VaultFormatError(`${id}/${file.name}: no front matter`);
    return parsed;
  } catch (error) {
    if (error instanceof YamlError) throw new VaultFormatError(`${id}/${file.name}: ${error.message}`);
    throw error;
  }
}

/** The conversation a folder's files make; `id` is the folder's. */
export function parseConversation(id: string, files: readonly VaultFile[], now: () => string = () => new Date().toISOString()): VaultConversation {
  const headFile = files.find((file) => file.name === CONVERSATION_FILE);
  if (!headFile) throw new VaultFormatError(`${id}: no ${CONVERSATION_FILE}`);
  const { data: head, texts: headTexts } = front(id, headFile);
  const created = time(head.created, now());
  const messages = files
    .filter((file) => file.name.startsWith(MESSAGE_PREFIX) && file.name.endsWith('.md'))
    .map((file): VaultMessage => {
      const { data, texts, body } = front(id, file);
      const messageCreated = time(data.created, created);
      return {
        id: text(texts.id) || file.name.slice(MESSAGE_PREFIX.length, -'.md'.length),
        role: text(texts.role) || 'USER',
        ...(text(texts.sentiment) ? { sentiment: text(texts.sentiment) } : {}),
        created: messageCreated,
        updated: time(data.updated, messageCreated),
        text: body,
      };
    })
    .sort(byCreated);
  const websites = Array.isArray(headTexts.websites)
    ? headTexts.websites.flatMap((site): VaultWebsite[] =>
        site !== null && typeof site === 'object' && !Array.isArray(site) && text(site.url) !== '' ? [{ url: text(site.url), name: text(site.name) || text(site.url) }] : [],
      )
    : [];
  return {
    id,
    ...(text(headTexts.name) ? { name: text(headTexts.name) } : {}),
    type: text(headTexts.type) || 'COPILOT',
    favorited: head.favorited === true,
    assets: sortedTexts(Array.isArray(headTexts.assets) ? headTexts.assets.map(text).filter(Boolean) : []),
    websites: sortedWebsites(websites),
    created,
    updated: time(head.updated, created),
    messages,
  };
}
