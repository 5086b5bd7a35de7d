import type { StoreContext } from '../context.ts';
import type { ModelService } from '../models/modelService.ts';
import type { RecordKind } from '../events.ts';
import { InvalidInputError, NotFoundError, UnsupportedError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { checkLimit } from '../limits.ts';
import type * as W from '../piecesTypes.ts';
import { MessageStore, type StoredMessage } from './messageStore.ts';
import { ConversationReads, type StreamedConversation } from './conversationReads.ts';
import {
  initialScore,
  relationsOf,
  type Flattened,
  type ConversationType,
  type FragmentFormat,
  type GroupedTimestamp,
  type MessageRole,
  type StoredConversation,
} from './records.ts';
import { RelatedRecords, type AnchorSeed, type AnnotationSeed, type DescriptionWrite, type IdList } from './relatedRecords.ts';
import type { WriteOptions } from '../history/authors.ts';
import { ConversationWriter } from './writer.ts';
import { ConversationTrash } from './conversationTrash.ts';
import type { TrashEntry, TrashStore } from '../trash/trashStore.ts';

export interface MessageSeed {
  readonly role: MessageRole;
  readonly fragment: FragmentFormat;
  readonly created?: GroupedTimestamp;
  readonly sentiment?: string;
}

export interface ConversationSeed {
  readonly type: ConversationType;
  readonly name?: string;
  readonly favorited?: boolean;
  readonly demo?: boolean;
  readonly model?: { readonly id: string };
  readonly messages?: readonly MessageSeed[];
  readonly annotations?: readonly AnnotationSeed[];
  readonly anchors?: readonly AnchorSeed[];
  readonly assets?: IdList;
  readonly websites?: IdList;
}

/** The fields of a Conversation that `POST /conversation/update` changes; relations have their own operations. */
export interface ConversationUpdate {
  readonly id: string;
  readonly name?: string;
  readonly type?: ConversationType;
  readonly favorited?: boolean;
  readonly demo?: boolean;
}

/** The counters of a SeededScore: each one that is true goes up by one. */
export interface ScoreFlags {
  readonly reuse?: boolean;
  readonly update?: boolean;
  readonly reference?: boolean;
  readonly priority?: boolean;
  readonly searched?: boolean;
}

/** The twelve association operations of a conversation, by the kind of record they link. */
export type ConversationRelation = 'anchor' | 'asset' | 'website' | 'workstream_summary' | 'grounding_message' | 'grounding_range';

const relationKinds: Record<ConversationRelation, RecordKind> = {
  anchor: 'anchor',
  asset: 'asset',
  website: 'website',
  workstream_summary: 'workstream_summary',
  grounding_message: 'message',
  grounding_range: 'range',
};

/**
 * What a title or a summary is made from: the opening of each of at most this many messages,
 * spread over the conversation (a 288 MB conversation was read whole to be renamed).
 */
const SAMPLED_MESSAGES = 400;
const SAMPLED_CHARS = 16_384;

/** Conversations, messages, annotations and their associations. */
export class ConversationService {
  private readonly context: StoreContext;
  private readonly models: ModelService;
  private readonly messageStore: MessageStore;
  /** Annotations, anchors, ranges and workstream summaries. */
  readonly records: RelatedRecords;
  readonly writer: ConversationWriter;
  /** Snapshots, message lists and previews, each bounded by what it answers. */
  readonly reads: ConversationReads;
  /** Whether an asset exists: assets live in the assets area's own table. */
  private readonly assetExists: (id: string) => boolean;

  /** Where deletes keep what they remove (docs/trash.md); undefined: a delete is for good. */
  private readonly trashed: ConversationTrash | undefined;

  /**
   * `describing` makes a change of an asset's description annotation a write of that asset (see
   * RelatedRecords); `trash` keeps what a delete removes.
   */
  constructor(context: StoreContext, models: ModelService, assetExists?: (id: string) => boolean, describing?: DescriptionWrite, trash?: TrashStore) {
    this.context = context;
    this.models = models;
    this.messageStore = new MessageStore(context.database);
    this.trashed = trash ? new ConversationTrash(context, this.messageStore, trash) : undefined;
    this.reads = new ConversationReads(context, this.messageStore);
    this.assetExists = assetExists ?? ((id) => context.records.has('asset', id));
    this.records = new RelatedRecords(context, (kind, id) => this.exists(kind, id), describing);
    this.writer = new ConversationWriter(() => this.models.textGenerator(), {}, context.logger);
  }

  private exists(kind: RecordKind, id: string): boolean {
    if (kind === 'asset') return this.assetExists(id);
    if (kind === 'message') return this.messageStore.has(id);
    return this.context.records.has(kind, id);
  }

  // ── conversations ──

  identifiers(): W.FlattenedConversations {
    const ids = this.context.records.ids('conversation');
    return { iterable: ids.map((id) => ({ id })), indices: Object.fromEntries(ids.map((id, index) => [id, index])) };
  }

  streamedIdentifiers(): W.StreamedIdentifiers {
    return { iterable: this.context.records.ids('conversation').map((id) => ({ conversation: { id } })) };
  }

  /** One conversation read whole (see `reads.streamed` for replies). */
  get(id: string, transferables: boolean): W.Conversation {
    return this.reads.get(id, transferables);
  }

  /** Several conversations read whole, those that exist among `ids` (what a page of assets embeds). */
  getMany(ids: readonly string[], transferables: boolean): Map<string, W.Conversation> {
    return this.reads.getMany(ids, transferables);
  }

  /** `by`: who creates it (an annotation of its seed may describe an asset, a change of that asset). */
  create(seed: ConversationSeed, transferables: boolean, by?: WriteOptions): StreamedConversation {
    if (seed.name !== undefined) checkLimit('nameChars', seed.name.length);
    for (const message of seed.messages ?? []) checkMessage(message);
    const id = this.context.transaction(() => {
      const now = stamp();
      const stored: StoredConversation = {
        id: newId(),
        type: seed.type,
        created: now,
        updated: now,
        score: initialScore(),
        ...(seed.name !== undefined ? { name: seed.name } : {}),
        ...(seed.favorited !== undefined ? { favorited: seed.favorited } : {}),
        ...(seed.demo !== undefined ? { demo: seed.demo } : {}),
        ...(seed.model ? { model: { id: seed.model.id } } : {}),
      };
      this.context.records.put('conversation', stored.id, stored);
      this.context.publish({ kind: 'conversation', id: stored.id });
      const self = { kind: 'conversation', id: stored.id } as const;
      for (const message of seed.messages ?? []) this.insertMessage(stored.id, message);
      for (const annotation of seed.annotations ?? []) this.records.createAnnotation({ ...annotation, conversation: stored.id }, undefined, by);
      for (const anchor of seed.anchors ?? []) this.records.createAnchor({ ...anchor, conversation: stored.id });
      for (const { id: asset } of seed.assets?.iterable ?? []) this.records.link(self, { kind: 'asset', id: asset });
      for (const { id: website } of seed.websites?.iterable ?? []) this.records.link(self, { kind: 'website', id: website });
      return stored.id;
    });
    return this.reads.streamed(id, transferables);
  }

  update(input: ConversationUpdate, transferables: boolean): StreamedConversation {
    this.context.transaction(() => {
      const stored = this.stored(input.id);
      if (input.name !== undefined) checkLimit('nameChars', input.name.length, stored.name?.length ?? 0);
      this.save({
        ...stored,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(input.favorited !== undefined ? { favorited: input.favorited } : {}),
        ...(input.demo !== undefined ? { demo: input.demo } : {}),
      });
    });
    return this.reads.streamed(input.id, transferables);
  }

  incrementScores(id: string, flags: ScoreFlags | undefined): void {
    this.context.transaction(() => {
      const stored = this.stored(id);
      const score: W.Score = { ...stored.score };
      for (const key of ['reuse', 'update', 'reference', 'priority', 'searched'] as const) {
        if (flags?.[key]) score[key] = (score[key] ?? 0) + 1;
      }
      // Any increment is a use of the conversation: the automatic score counts them all.
      if (flags && Object.values(flags).some(Boolean)) score.automatic += 1;
      this.save({ ...stored, score });
    });
  }

  /**
   * Deletes the conversation, its messages and every link naming either; nothing dangles. With a
   * trash, all of it is kept there first (conversationTrash.ts), deleted `by` the caller.
   */
  delete(id: string, by: WriteOptions): void {
    this.context.transaction(() => {
      const stored = this.stored(id);
      const messages = this.messageStore.idsFor(id);
      this.trashed?.keep(stored, messages, by);
      for (const message of messages) this.removeMessage(message);
      const partners = this.context.links.removeAll({ kind: 'conversation', id });
      for (const partner of partners) {
        // A summary annotation exists only for its conversation: without it, it would be an orphan.
        if (partner.kind === 'annotation' && isOrphan(relationsOf(this.context.links, 'annotation', partner.id))) {
          this.trashed?.keepOwned(id, partner.id);
          this.records.delete('annotation', partner.id);
        } else this.context.publish(partner);
      }
      this.context.records.delete('conversation', id);
      this.context.publish({ kind: 'conversation', id, deleted: true });
    });
  }

  /** Whether a trashed conversation's id (or one of its messages') is taken again: its restore would collide. */
  trashedLive(id: string): boolean {
    return this.trashed?.live(id) ?? this.context.records.has('conversation', id);
  }

  /** Puts a trashed conversation back (the trash area's restore, its links made again first). */
  restoreTrashed(entry: TrashEntry): void {
    if (!this.trashed) throw new UnsupportedError('This conversations area keeps no trash');
    this.trashed.restore(entry);
  }

  /** Whether a message exists (the trash area's restore asks of the records a conversation linked to). */
  hasMessage(id: string): boolean {
    return this.messageStore.has(id);
  }

  // ── associations ──

  associate(id: string, relation: ConversationRelation, target: string): void {
    this.context.transaction(() => {
      const stored = this.stored(id);
      const kind = relationKinds[relation];
      this.records.require(kind, target);
      if (this.context.links.link({ kind: 'conversation', id }, { kind, id: target })) {
        this.save(stored);
        this.context.publish({ kind, id: target });
      }
    });
  }

  disassociate(id: string, relation: ConversationRelation, target: string): void {
    this.context.transaction(() => {
      const stored = this.stored(id);
      const kind = relationKinds[relation];
      this.records.require(kind, target);
      if (this.context.links.unlink({ kind: 'conversation', id }, { kind, id: target })) {
        this.save(stored);
        this.context.publish({ kind, id: target });
      }
    });
  }

  // ── rename and summarize ──

  /** Names the conversation after its content (a model when one is loaded, rules otherwise). */
  async rename(id: string, transferables: boolean): Promise<StreamedConversation> {
    const stored = this.stored(id);
    const messages = this.reads.sampledTexts(id, SAMPLED_MESSAGES, SAMPLED_CHARS);
    // An empty conversation keeps the name it has: there is nothing to name it after.
    const title = messages.length > 0 || stored.name === undefined ? (await this.writer.title(messages)).text : stored.name;
    this.context.transaction(() => this.save({ ...this.stored(id), name: title }));
    return this.reads.streamed(id, transferables);
  }

  /**
   * Summarizes the conversation (or the listed messages of it), saves the summary as an annotation
   * associated with the conversation and returns references to both.
   */
  async summarize(id: string, messageIds: readonly string[] | undefined): Promise<W.ConversationSummarizeOutput> {
    this.stored(id);
    let only: Set<string> | undefined;
    if (messageIds && messageIds.length > 0) {
      for (const messageId of new Set(messageIds)) {
        const conversation = this.messageStore.conversationOf(messageId);
        if (conversation === undefined) throw new NotFoundError('message', messageId);
        if (conversation !== id) throw new InvalidInputError(`Message ${messageId} belongs to another conversation`);
      }
      only = new Set(messageIds);
    }
    const input = this.reads.sampledTexts(id, SAMPLED_MESSAGES, SAMPLED_CHARS, only);
    if (input.length === 0) throw new InvalidInputError(`Conversation ${id} has no message text to summarize`);
    const summary = await this.writer.summary(input);
    const annotation = this.context.transaction(() => {
      this.save(this.stored(id));
      return this.records.createAnnotation({ type: 'SUMMARY', text: summary.text, conversation: id }, summary.generator);
    });
    return { conversation: { id }, annotation: { id: annotation.id } };
  }

  // ── messages ──

  createMessage(conversation: string, seed: MessageSeed, transferables: boolean): W.ConversationMessage {
    checkMessage(seed);
    const id = this.context.transaction(() => {
      const stored = this.stored(conversation);
      const messageId = this.insertMessage(conversation, seed);
      this.save(stored);
      return messageId;
    });
    return this.message(id, transferables);
  }

  message(id: string, transferables: boolean): W.ConversationMessage {
    return this.reads.message(id, transferables);
  }

  deleteMessage(id: string): void {
    this.context.transaction(() => {
      const owner = this.messageStore.conversationOf(id);
      if (owner === undefined) throw new NotFoundError('message', id);
      this.removeMessage(id);
      const conversation = this.context.records.get<StoredConversation>('conversation', owner);
      if (conversation) this.save(conversation);
    });
  }

  private insertMessage(conversation: string, seed: MessageSeed): string {
    const now = stamp();
    const message: StoredMessage = {
      id: newId(),
      conversation,
      role: seed.role,
      created: seed.created ?? now,
      updated: now,
      fragment: seed.fragment,
      ...(seed.sentiment ? { sentiment: seed.sentiment } : {}),
    };
    this.messageStore.put(message);
    this.context.publish({ kind: 'message', id: message.id });
    return message.id;
  }

  private removeMessage(id: string): void {
    this.messageStore.delete(id);
    for (const partner of this.context.links.removeAll({ kind: 'message', id })) this.context.publish(partner);
    this.context.publish({ kind: 'message', id, deleted: true });
  }

  // ── storage ──

  private stored(id: string): StoredConversation {
    return this.reads.stored(id);
  }

  /**
   * Writes the conversation with a fresh `updated` and announces it, and the assets linked to it:
   * an asset's reply embeds its conversations whole, so their frames would go stale otherwise.
   */
  private save(conversation: StoredConversation): void {
    this.context.records.put('conversation', conversation.id, { ...conversation, updated: stamp() });
    this.context.publish({ kind: 'conversation', id: conversation.id });
    for (const asset of this.context.links.partners({ kind: 'conversation', id: conversation.id }, 'asset')) {
      this.context.publish({ kind: 'asset', id: asset });
    }
  }
}

/**
 * Refuses a message over the message limit, counting every text and byte its fragment carries
 * (it is stored as sent, in each encoding given).
 */
export function checkMessage(message: Pick<MessageSeed, 'fragment'>): void {
  const { string, bytes } = message.fragment;
  let size = 0;
  for (const value of [string?.raw, string?.base64, string?.base64_url, string?.data_url, bytes?.raw, bytes?.base64, bytes?.base64_url, bytes?.data_url]) {
    size += value?.length ?? 0;
  }
  checkLimit('messageChars', size);
}

function isOrphan(relations: Record<string, Flattened>): boolean {
  return Object.values(relations).every((list) => list.iterable.length === 0);
}
