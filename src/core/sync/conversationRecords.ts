/**
 * The store's conversations as vault records (vaultConversations.ts): read with their messages and
 * links, and written back exactly (ids and times kept), in the caller's transaction. What a record
 * does not hold of a conversation (its scores, model, summaries and anchors) is left as it is.
 */
import type { StoreContext } from '../context.ts';
import { MessageStore, type StoredMessage } from '../conversations/messageStore.ts';
import type { StoredConversation } from '../conversations/records.ts';
import { Labels } from '../assets/labels.ts';
import { stampAt } from '../assets/exactRecords.ts';
import { checkLimit, overLimit, type LimitKind } from '../limits.ts';
import { DomainError } from '../errors.ts';
import { sortedTexts, sortedWebsites } from './vaultFormat.ts';
import { byCreated, type VaultConversation, type VaultMessage } from './vaultConversations.ts';

export class ConversationRecords {
  private readonly context: StoreContext;
  private readonly messages: MessageStore;
  private readonly labels: Labels;
  private readonly assetExists: (id: string) => boolean;

  constructor(context: StoreContext, assetExists: (id: string) => boolean) {
    this.context = context;
    this.messages = new MessageStore(context.database);
    this.labels = new Labels(context);
    this.assetExists = assetExists;
  }

  ids(): string[] {
    return this.context.records.ids('conversation');
  }

  count(): number {
    return this.context.records.count('conversation');
  }

  read(id: string): VaultConversation | undefined {
    const stored = this.context.records.get<StoredConversation>('conversation', id);
    if (stored === undefined) return undefined;
    const self = { kind: 'conversation', id } as const;
    const heads = this.messages.heads(id);
    const messages = this.messages
      .read(
        heads.map((head) => head.id),
        true,
      )
      .map(
        (message): VaultMessage => ({
          id: message.id,
          role: messageRole(message.role),
          ...(message.sentiment ? { sentiment: message.sentiment } : {}),
          created: message.created.value,
          updated: message.updated.value,
          text: message.fragment?.string?.raw ?? '',
        }),
      )
      .sort(byCreated);
    return {
      id,
      ...(stored.name !== undefined ? { name: stored.name } : {}),
      type: stored.type,
      favorited: stored.favorited === true,
      assets: sortedTexts(this.context.links.partners(self, 'asset')),
      websites: sortedWebsites(this.context.links.partners(self, 'website').map((site) => this.labels.website(site)).map((site) => ({ url: site.url, name: site.name ?? site.url }))),
      created: stored.created.value,
      updated: stored.updated.value,
      messages,
    };
  }

  /** Writes each record that differs from what is stored; one refused (over a limit) fails alone. Returns how many were written. */
  putMany(records: readonly VaultConversation[], fail: (id: string, reason: string) => void): number {
    let written = 0;
    for (const record of records) {
      try {
        if (JSON.stringify(this.read(record.id)) === JSON.stringify(record)) continue;
        this.put(record);
        written++;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        fail(record.id, error.message);
      }
    }
    return written;
  }

  /** Sets the conversation to exactly the record (creating it under its id); snippets it names that are not here are not linked. */
  put(record: VaultConversation): void {
    for (const [kind, size] of limitedSizes(record)) checkLimit(kind, size);
    this.context.transaction(() => {
      const before = this.context.records.get<StoredConversation>('conversation', record.id);
      // What the record does not hold (scores, model, application) stays as it was.
      const { name: _name, favorited: _favorited, ...kept } = before ?? { score: { manual: 0, automatic: 0 } };
      const stored: StoredConversation = {
        ...kept,
        id: record.id,
        type: conversationType(record.type),
        created: stampAt(record.created),
        updated: stampAt(record.updated),
        ...(record.name !== undefined ? { name: record.name } : {}),
        ...(record.favorited ? { favorited: true } : {}),
      };
      this.context.records.put('conversation', record.id, stored);
      const self = { kind: 'conversation', id: record.id } as const;
      const wanted = new Set(record.messages.map((message) => message.id));
      for (const head of this.messages.heads(record.id)) {
        if (wanted.has(head.id)) continue;
        this.messages.delete(head.id);
        this.context.links.removeAll({ kind: 'message', id: head.id });
        this.context.publish({ kind: 'message', id: head.id, deleted: true });
      }
      for (const message of record.messages) {
        const next: StoredMessage = {
          id: message.id,
          conversation: record.id,
          role: messageRole(message.role),
          created: stampAt(message.created),
          updated: stampAt(message.updated),
          fragment: { string: { raw: message.text } },
          ...(message.sentiment ? { sentiment: message.sentiment } : {}),
        };
        this.messages.put(next);
        this.context.publish({ kind: 'message', id: message.id });
      }
      const assets = new Set(record.assets.filter((asset) => this.assetExists(asset)));
      for (const asset of this.context.links.partners(self, 'asset')) if (!assets.has(asset)) this.context.links.unlink(self, { kind: 'asset', id: asset });
      for (const asset of assets) this.context.links.link(self, { kind: 'asset', id: asset });
      const urls = new Set(record.websites.map((site) => site.url));
      for (const site of this.context.links.partners(self, 'website')) if (!urls.has(this.labels.website(site).url)) this.context.links.unlink(self, { kind: 'website', id: site });
      for (const site of record.websites) this.context.links.link(self, { kind: 'website', id: this.labels.createWebsite({ url: site.url, name: site.name }).id });
      this.context.publish({ kind: 'conversation', id: record.id });
    });
  }
}

const ROLES = ['UNKNOWN', 'USER', 'SYSTEM', 'ASSISTANT'] as const;
const TYPES = ['UNKNOWN', 'COPILOT'] as const;

/** A role the interface knows (a hand-edited file's other word reads as UNKNOWN). */
function messageRole(role: string): StoredMessage['role'] {
  return ROLES.find((known) => known === role.toUpperCase()) ?? 'UNKNOWN';
}

function conversationType(type: string): StoredConversation['type'] {
  return TYPES.find((known) => known === type.toUpperCase()) ?? 'COPILOT';
}

/** The sizes of a conversation record the limits hold (its name, each message), as every door checks them. */
function limitedSizes(record: VaultConversation): Array<readonly [LimitKind, number]> {
  return [...(record.name !== undefined ? [['nameChars', record.name.length] as const] : []), ...record.messages.map((message) => ['messageChars', message.text.length] as const)];
}

/** Why the record cannot be stored (the first limit it is over), or undefined. */
export function conversationRefusal(record: VaultConversation): string | undefined {
  for (const [kind, size] of limitedSizes(record)) {
    const over = overLimit(kind, size);
    if (over !== undefined) return over;
  }
  return undefined;
}
