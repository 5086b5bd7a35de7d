/**
 * A conversation's way into the trash and back (docs/trash.md). Its delete keeps, in its own
 * transaction and before anything is removed, the conversation's record, its messages (each one's
 * document and head as stored), every link of the conversation and of its messages, a copy of each
 * tag and website they name, and the annotations deleted with it (a summary nothing else names);
 * the delete then removes them from the live tables as it always did. A restore puts the record
 * and its messages back under their ids, after the trash area has put back its records and links.
 */
import type { StoreContext } from '../context.ts';
import type { WriteOptions } from '../history/authors.ts';
import type { TrashEntry, TrashStore } from '../trash/trashStore.ts';
import type { MessageStore } from './messageStore.ts';
import type { StoredConversation } from './records.ts';

/** Characters of its first message a trashed conversation's listing shows. */
const PREVIEW_CHARS = 240;

export class ConversationTrash {
  private readonly context: StoreContext;
  private readonly messages: MessageStore;
  private readonly trash: TrashStore;

  constructor(context: StoreContext, messages: MessageStore, trash: TrashStore) {
    this.context = context;
    this.messages = messages;
    this.trash = trash;
  }

  /** Inside the delete's transaction, before it removes anything: keeps the conversation and its messages. */
  keep(stored: StoredConversation, messageIds: readonly string[], by: WriteOptions): void {
    const id = stored.id;
    const data = JSON.stringify(stored);
    const kept = this.messages.keepInTrash(id);
    const first = messageIds[0];
    this.trash.keep({
      kind: 'conversation',
      id,
      name: stored.name ?? '',
      preview: first === undefined ? '' : (this.messages.previews([first], PREVIEW_CHARS)[0]?.text ?? ''),
      language: undefined,
      messages: kept.count,
      deleted: Date.now(),
      author: by.author,
      size: Buffer.byteLength(data) + kept.bytes,
      facts: '{}',
      data,
    });
    this.trash.keepLinks(id, { kind: 'conversation', id });
    this.trash.keepLinksOfEach(id, 'message', messageIds);
    this.trash.keepShared(id);
  }

  /** An annotation the delete removes with the conversation (nothing else names it): kept to come back with it. */
  keepOwned(conversation: string, annotation: string): void {
    this.trash.keepRecords(conversation, 'annotation', [annotation], true);
  }

  /** Whether the conversation, or one of its messages, exists again outside the trash. */
  live(id: string): boolean {
    return this.context.records.has('conversation', id) || this.messages.trashedLive(id);
  }

  /** Puts a trashed conversation and its messages back (inside the restore's transaction, its links made again already). */
  restore(entry: TrashEntry): void {
    const stored = JSON.parse(entry.data) as StoredConversation;
    this.context.records.put('conversation', stored.id, stored);
    for (const message of this.messages.restoreFromTrash(stored.id)) this.context.publish({ kind: 'message', id: message });
    this.context.publish({ kind: 'conversation', id: stored.id });
  }
}
