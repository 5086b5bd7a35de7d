/**
 * What is read of conversations, every read bounded by what it answers rather than by what the
 * store holds: snapshots and message lists a page at a time as they are sent, listings without
 * content from message heads only (no text), previews cut in SQLite, a question's context from the
 * newest messages back. A store of 23k conversations, or one conversation of 288 MB, was read whole
 * for each of these (1.3–5 s with health waiting; an MCP read of 288 MB never answered).
 */
import type { StoreContext } from '../context.ts';
import type { RecordKind } from '../events.ts';
import { NotFoundError } from '../errors.ts';
import { PagedCollection, boundedPages, evenly } from '../paged.ts';
import type * as W from '../piecesTypes.ts';
import type { MessageHead, MessagePreview, MessageStore, StoredMessage } from './messageStore.ts';
import type { StoredConversation } from './records.ts';
import { messageEntry, renderConversation, renderMessage, type MessageEntry, type Partners } from './conversationRendering.ts';

/** At most this many messages a page, and at most this many stored bytes (one larger message is a page alone). */
const MESSAGES_PER_PAGE = 1024;
const PAGE_BYTES = 4 * 1024 * 1024;
/** What a message's head stands for in a page's bytes when its text is not read. */
const HEAD_BYTES = 256;
const CONVERSATIONS_PER_PAGE = 64;
/**
 * Stored bytes a preview or a sample reads at most (one larger message alone): a preview is cut
 * from the message's text, but SQLite still parses the whole stored message to find it (~5 ms a MB).
 */
const PREVIEW_BYTES = 8 * 1024 * 1024;

/** A Conversation whose messages are read a page at a time as it is sent. */
export type StreamedConversation = Omit<W.Conversation, 'messages'> & { readonly messages: PagedCollection<MessageEntry> };

/** A line of a list of conversations: no message is read. */
export interface ConversationOverview {
  readonly id: string;
  readonly name?: string;
  readonly updated: W.GroupedTimestamp;
  readonly messages: number;
  /** Ids of the assets linked to it. */
  readonly assets: readonly string[];
}

/** A page of a conversation's messages, each cut to a preview. */
export interface MessagePage {
  readonly id: string;
  readonly name?: string;
  readonly assets: readonly string[];
  /** Messages in the whole conversation. */
  readonly total: number;
  readonly offset: number;
  readonly messages: readonly MessagePreview[];
  /** The offset of the next page, when there are more messages. */
  readonly next?: number;
}

/** A message's role and text, as a prompt or a summary reads it. */
export interface MessageText {
  readonly role: string;
  readonly text: string;
}

export class ConversationReads {
  private readonly context: StoreContext;
  private readonly messages: MessageStore;

  constructor(context: StoreContext, messages: MessageStore) {
    this.context = context;
    this.messages = messages;
  }

  stored(id: string): StoredConversation {
    const stored = this.context.records.get<StoredConversation>('conversation', id);
    if (!stored) throw new NotFoundError('conversation', id);
    return stored;
  }

  // ── whole conversations ──

  /** One conversation; its messages are read when it is sent, a page at a time. */
  streamed(id: string, transferables: boolean): StreamedConversation {
    const stored = this.stored(id);
    const end = { kind: 'conversation', id } as const;
    const messages = new PagedCollection(() => this.entryPages(this.messages.headBatches(id), transferables));
    return renderConversation((kind) => this.context.links.partners(end, kind), stored, messages);
  }

  /** One conversation read whole, for callers that hold it in memory. */
  get(id: string, transferables: boolean): W.Conversation {
    const streamed = this.streamed(id, transferables);
    return { ...streamed, messages: streamed.messages.collect() };
  }

  /**
   * Several conversations (those that exist among `ids`), each read once with one query for their
   * records, one for their messages and one for their links: what a page of assets embeds.
   */
  getMany(ids: readonly string[], transferables: boolean): Map<string, W.Conversation> {
    const distinct = [...new Set(ids)];
    const stored = this.context.records.getMany<StoredConversation>('conversation', distinct);
    const present = distinct.filter((id) => stored.has(id));
    const messages = this.messages.listForEach(present, transferables);
    const partners = this.context.links.partnersOfEach('conversation', present);
    return new Map(
      present.map((id) => {
        const entries = (messages.get(id) ?? []).map((message) => messageEntry(message, transferables));
        const messageList = { iterable: entries, indices: Object.fromEntries(entries.map((entry, index) => [entry.id, index])) };
        return [id, renderConversation(partnersIn(partners, id), stored.get(id)!, messageList)];
      }),
    );
  }

  /** Every conversation, a page at a time (GET /conversations). */
  snapshot(transferables: boolean): PagedCollection<StreamedConversation> {
    return new PagedCollection(() => this.conversationPages(this.context.records.ids('conversation'), transferables));
  }

  /** Conversations associated with an asset (GET /asset/{asset}/conversations). */
  listForAsset(assetId: string, transferables: boolean): PagedCollection<StreamedConversation> {
    return new PagedCollection(() =>
      this.conversationPages(this.context.links.partners({ kind: 'asset', id: assetId }, 'conversation'), transferables),
    );
  }

  private *conversationPages(ids: readonly string[], transferables: boolean): Generator<StreamedConversation[]> {
    for (let at = 0; at < ids.length; at += CONVERSATIONS_PER_PAGE) {
      yield this.conversationPage(ids.slice(at, at + CONVERSATIONS_PER_PAGE), transferables);
    }
  }

  /**
   * A page of conversations, read with one query each for their records, links and message counts;
   * the messages of those that fit the page's budget with two more, the others' when they are sent.
   */
  private conversationPage(ids: readonly string[], transferables: boolean): StreamedConversation[] {
    const stored = this.context.records.getMany<StoredConversation>('conversation', ids);
    const present = ids.filter((id) => stored.has(id));
    const partners = this.context.links.partnersOfEach('conversation', present);
    // Heads are read for the conversations whose messages the page may hold by count; of those, the
    // ones whose messages also fit its bytes are read with the page.
    const counts = this.messages.countEach(present);
    let room = MESSAGES_PER_PAGE;
    const small = present.filter((id) => {
      const count = counts.get(id) ?? 0;
      if (count > room) return false;
      room -= count;
      return true;
    });
    const heads = this.messages.headsOfEach(small);
    let left = PAGE_BYTES;
    const fitting = small.filter((id) => {
      const bytes = (heads.get(id) ?? []).reduce((sum, head) => sum + cost(head, transferables), 0);
      if (bytes > left) return false;
      left -= bytes;
      return true;
    });
    const read = this.messages.read(
      fitting.flatMap((id) => (heads.get(id) ?? []).map((head) => head.id)),
      transferables,
    );
    const byId = new Map(read.map((message) => [message.id, message]));
    const held = new Set(fitting);
    return present.map((id) => {
      const messages = held.has(id)
        ? PagedCollection.of((heads.get(id) ?? []).flatMap((head) => byId.get(head.id) ?? []).map((message) => messageEntry(message, transferables)))
        : new PagedCollection(() => this.entryPages(this.messages.headBatches(id), transferables));
      return renderConversation(partnersIn(partners, id), stored.get(id)!, messages);
    });
  }

  private *entryPages(batches: Iterable<readonly MessageHead[]>, transferables: boolean): Generator<MessageEntry[]> {
    for (const page of this.pagesOf(batches, transferables)) {
      yield this.messages.read(page, transferables).map((message) => messageEntry(message, transferables));
    }
  }

  // ── messages ──

  message(id: string, transferables: boolean): W.ConversationMessage {
    const [message] = this.messages.read([id], transferables);
    if (!message) throw new NotFoundError('message', id);
    return this.renderMessages([message], transferables)[0]!;
  }

  /** The opening `chars` of each message's text (and its whole length), for those of `ids` that exist. */
  messageTexts(ids: readonly string[], chars: number): Map<string, { readonly text: string; readonly chars: number }> {
    return new Map(this.messages.previews(ids, chars).map((preview) => [preview.id, { text: preview.text, chars: preview.chars }]));
  }

  /** The messages of one conversation, a page at a time (GET /conversation/{id}/messages). */
  messagesOf(id: string, transferables: boolean): PagedCollection<W.ConversationMessage> {
    this.stored(id);
    return new PagedCollection(() => this.messagePages(this.messages.headBatches(id), transferables));
  }

  /** Every message, a page at a time (GET /messages). */
  allMessages(transferables: boolean): PagedCollection<W.ConversationMessage> {
    return new PagedCollection(() => this.messagePages(this.messages.headBatches(undefined), transferables));
  }

  private *messagePages(batches: Iterable<readonly MessageHead[]>, transferables: boolean): Generator<W.ConversationMessage[]> {
    for (const page of this.pagesOf(batches, transferables)) yield this.renderMessages(this.messages.read(page, transferables), transferables);
  }

  /** Messages with their links, read with one query for all of them. */
  private renderMessages(messages: readonly StoredMessage[], transferables: boolean): W.ConversationMessage[] {
    const partners = this.context.links.partnersOfEach('message', messages.map((message) => message.id));
    return messages.map((message) => renderMessage(partnersIn(partners, message.id), message, transferables));
  }

  /** Ids of the heads in pages whose reads are bounded (by their text's bytes, or by count without text). */
  private *pagesOf(batches: Iterable<readonly MessageHead[]>, transferables: boolean): Generator<string[]> {
    for (const batch of batches) {
      const sized = batch.map((head) => ({ id: head.id, size: cost(head, transferables) }));
      for (const page of boundedPages(sized, MESSAGES_PER_PAGE, PAGE_BYTES)) yield page.map((head) => head.id);
    }
  }

  // ── previews ──

  /** The `limit` conversations updated last, newest first, with their message counts; no message is read. */
  recent(limit: number): ConversationOverview[] {
    const ids = this.context.records.newest('conversation', limit);
    const stored = this.context.records.getMany<StoredConversation>('conversation', ids);
    const present = ids.filter((id) => stored.has(id));
    const counts = this.messages.countEach(present);
    const partners = this.context.links.partnersOfEach('conversation', present);
    return present.map((id) => {
      const conversation = stored.get(id)!;
      return {
        id,
        ...(conversation.name !== undefined ? { name: conversation.name } : {}),
        updated: conversation.updated,
        messages: counts.get(id) ?? 0,
        assets: partners.get(id)?.get('asset') ?? [],
      };
    });
  }

  /**
   * At most `limit` messages of a conversation from `offset` on, each cut to `previewChars`; a page
   * also ends before its stored messages pass PREVIEW_BYTES (one larger message is a page alone).
   */
  messagePage(id: string, offset: number, limit: number, previewChars: number): MessagePage {
    const conversation = this.stored(id);
    const total = this.messages.count(id);
    const [page = []] = boundedPages(this.messages.headsAt(id, offset, limit), limit, PREVIEW_BYTES);
    const next = offset + page.length;
    return {
      id,
      ...(conversation.name !== undefined ? { name: conversation.name } : {}),
      assets: this.context.links.partners({ kind: 'conversation', id }, 'asset'),
      total,
      offset,
      messages: this.messages.previews(page.map((head) => head.id), previewChars),
      ...(next < total ? { next } : {}),
    };
  }

  /**
   * The newest messages with text of a conversation, oldest first, as many as fit in `chars`
   * (each counted as `role: text`): what a question is asked with. Only the heads of older
   * messages are read, and only up to the first one that no longer fits.
   */
  recentTexts(id: string, chars: number): MessageText[] {
    const chosen: string[] = [];
    let left = chars;
    for (const head of this.messages.newestFirst(id)) {
      if (head.chars === 0) continue;
      const needed = head.chars + String(head.role).length + 2;
      if (needed > left) break;
      chosen.push(head.id);
      left -= needed;
    }
    return this.messages
      .read(chosen.reverse(), true)
      .map((message) => ({ role: message.role, text: message.fragment?.string?.raw ?? '' }))
      .filter((message) => message.text.trim() !== '');
  }

  /**
   * What a title or a summary is made from: the opening `chars` of each message, of at most
   * `maxMessages` messages spread evenly over the conversation (its first and last always among
   * them), or over those among `only` when given, and fewer when they would read more than
   * PREVIEW_BYTES.
   */
  sampledTexts(id: string, maxMessages: number, chars: number, only?: ReadonlySet<string>): MessageText[] {
    let heads = (only ? evenly(this.messages.headsOf([...only]), maxMessages) : this.messages.spread(id, maxMessages)).filter(
      (head) => head.chars > 0,
    );
    // Fewer, still spread over the conversation, when reading them all would pass the budget.
    while (heads.length > 2 && heads.reduce((sum, head) => sum + head.size, 0) > PREVIEW_BYTES) heads = evenly(heads, Math.floor(heads.length / 2));
    return this.messages
      .previews(heads.map((head) => head.id), chars, true)
      .map((message) => ({ role: message.role, text: message.text }))
      .filter((message) => message.text.trim() !== '');
  }
}

/** What a page of text costs to read: its stored bytes, or a head's when the text is left out. */
function cost(head: MessageHead, transferables: boolean): number {
  return transferables ? head.size : HEAD_BYTES;
}

function partnersIn(partners: ReadonlyMap<string, ReadonlyMap<RecordKind, string[]>>, id: string): Partners {
  return (kind) => partners.get(id)?.get(kind) ?? [];
}
