/**
 * The sync's door for secrets in conversations (issue 32): a key pasted into a chat is a value like one in
 * a snippet. What the plan reads of a conversation has each value in its name and messages replaced by its
 * placeholder; a version that comes back takes this machine's values again, message by message (a message
 * keeps its id on every machine), before it is written here. Conversations have no "sync with its secret".
 */
import type { DoorSecrets } from '../secrets/doorSecrets.ts';
import { hiddenAcross, holdsPlaceholder, restoreText, secretSpans } from '../secrets/doorSecrets.ts';
import type { SecretFinding } from '../secrets/findings.ts';
import type { SyncedKind } from './syncTargets.ts';
import type { VaultConversation } from './vaultConversations.ts';

/** One text of a conversation as read here, and its findings (kept only when it holds a value). */
interface HeldText {
  readonly text: string;
  readonly findings: readonly SecretFinding[];
}

/** This machine's texts of a conversation that hold values: its name, and its messages by id. */
export interface Held {
  readonly name?: HeldText | undefined;
  readonly messages: ReadonlyMap<string, HeldText>;
}

export class GuardedConversations implements SyncedKind<VaultConversation> {
  private readonly inner: SyncedKind<VaultConversation>;
  private readonly secrets: DoorSecrets;
  private readonly held = new Map<string, Held>();
  /** What the plan sent of each conversation it read with a value, to compare with in the apply. */
  private readonly sent = new Map<string, { readonly read: VaultConversation; readonly sent: VaultConversation }>();

  constructor(inner: SyncedKind<VaultConversation>, secrets: DoorSecrets) {
    this.inner = inner;
    this.secrets = secrets;
  }

  get kind(): SyncedKind<VaultConversation>['kind'] {
    return this.inner.kind;
  }

  allIds(): Iterable<readonly string[]> {
    return this.inner.allIds();
  }

  count(): number {
    return this.inner.count();
  }

  refusal(record: VaultConversation): string | undefined {
    return this.inner.refusal(record);
  }

  remove(id: string): void {
    this.inner.remove(id);
  }

  /** The conversation as it may leave this machine. */
  async readSent(id: string): Promise<VaultConversation | undefined> {
    const record = this.inner.read(id);
    if (record === undefined) return undefined;
    const { redacted, held } = await redactConversation(record, this.secrets);
    if (held !== undefined) {
      this.held.set(id, held);
      this.sent.set(id, { read: record, sent: redacted });
    }
    return redacted;
  }

  /** What the apply compares with the merge: the redacted form when this sync read this very version, else as stored (then taken as changed here, and merged again next time). */
  read(id: string): VaultConversation | undefined {
    const record = this.inner.read(id);
    const sent = this.sent.get(id);
    return record !== undefined && sent !== undefined && JSON.stringify(sent.read) === JSON.stringify(record) ? sent.sent : record;
  }

  async prepare(records: ReadonlyMap<string, VaultConversation>): Promise<void> {
    for (const record of records.values()) {
      if (this.held.has(record.id) || !holdsAny(record)) continue;
      const local = this.inner.read(record.id);
      if (local === undefined) continue;
      const { held } = await redactConversation(local, this.secrets);
      if (held !== undefined) this.held.set(record.id, held);
    }
  }

  put(records: readonly VaultConversation[]): void {
    this.inner.put(records.map((record) => this.restored(record)));
  }

  private restored(record: VaultConversation): VaultConversation {
    const held = this.held.get(record.id);
    if (held === undefined || !holdsAny(record)) return record;
    const back = (text: string, local: HeldText | undefined): string => (local === undefined ? text : restoreText(text, local.text, secretSpans(local.text, local.findings)));
    return {
      ...record,
      ...(record.name !== undefined ? { name: back(record.name, held.name) } : {}),
      messages: record.messages.map((message) => ({ ...message, text: back(message.text, held.messages.get(message.id)) })),
    };
  }
}

function holdsAny(record: VaultConversation): boolean {
  return holdsPlaceholder(record.name ?? '') || record.messages.some((message) => holdsPlaceholder(message.text));
}

/**
 * A conversation with each value in its name and messages replaced by its placeholder, and the texts
 * that held them. A value found in one of them is hidden where it echoes in the others (echoes.ts): a
 * title made from the first question holds a key the message holds, cut short.
 */
export async function redactConversation(record: VaultConversation, secrets: DoorSecrets): Promise<{ redacted: VaultConversation; held: Held | undefined }> {
  const hidden = await hiddenAcross([record.name ?? '', ...record.messages.map((message) => message.text)], secrets);
  const held = (text: string, i: number): HeldText | undefined => (hidden[i]!.findings.length === 0 ? undefined : { text, findings: hidden[i]!.findings });
  const name = record.name !== undefined ? { text: hidden[0]!.text, held: held(record.name, 0) } : undefined;
  const messages = new Map<string, HeldText>();
  const shown = record.messages.map((message, i) => {
    const local = held(message.text, i + 1);
    if (local === undefined) return message;
    messages.set(message.id, local);
    return { ...message, text: hidden[i + 1]!.text };
  });
  if (name?.held === undefined && messages.size === 0) return { redacted: record, held: undefined };
  return { redacted: { ...record, ...(name !== undefined ? { name: name.text } : {}), messages: shown }, held: { name: name?.held, messages } };
}
