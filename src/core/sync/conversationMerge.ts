/**
 * The three-way merge of one conversation (docs/sync.md), this machine's version and the remote's
 * against the state both last agreed on:
 *
 * - Messages are a set keyed by id: one added on either side is kept, one removed on a side (and
 *   not changed on the other) goes. A message changed on one side takes that side's version.
 * - A message changed differently on both sides keeps the remote's version under its id and saves
 *   this machine's as a message of its own right after it (same role, a millisecond later, an id
 *   made from the original's and the local text, so a sync run again makes the same one): nothing typed is lost,
 *   and no message holds conflict markers. The result says `conflict`.
 * - The name, type and favorite take the side that changed them; both changed differently: the
 *   remote's, and the result says `conflict` (with this machine's name when that was the name).
 *   Linked snippets and websites are sets.
 * - An edit beats a delete: a conversation deleted on one side and changed on the other is kept,
 *   changed, and the result says so.
 */
import { createHash } from 'node:crypto';
import { conflictCopyId, mergeSet, pick, type RecordMerge } from './recordMerge.ts';
import { sortedTexts, sortedWebsites, type VaultWebsite } from './vaultFormat.ts';
import { namedWebsites } from './labelSpelling.ts';
import { byCreated, type VaultConversation, type VaultMessage } from './vaultConversations.ts';

function sameMessage(a: VaultMessage, b: VaultMessage): boolean {
  return a.role === b.role && a.sentiment === b.sentiment && a.created === b.created && a.updated === b.updated && a.text === b.text;
}

/** The copy of this machine's version of a message both sides changed: the same every time this conflict is met. */
function messageCopy(ours: VaultMessage): VaultMessage {
  const version = createHash('sha1').update(`${ours.role}\0${ours.updated}\0${ours.text}`).digest('hex');
  // A millisecond later than the original: it reads right after it, whatever the two ids.
  const created = Number.isNaN(Date.parse(ours.created)) ? ours.created : new Date(Date.parse(ours.created) + 1).toISOString();
  return { ...ours, id: conflictCopyId(ours.id, version), created };
}

function mergeMessages(base: readonly VaultMessage[], ours: readonly VaultMessage[], theirs: readonly VaultMessage[]): { messages: VaultMessage[]; conflict: boolean } {
  const b = new Map(base.map((message) => [message.id, message]));
  const o = new Map(ours.map((message) => [message.id, message]));
  const t = new Map(theirs.map((message) => [message.id, message]));
  const out: VaultMessage[] = [];
  let conflict = false;
  for (const id of new Set([...t.keys(), ...o.keys()])) {
    const [was, mine, other] = [b.get(id), o.get(id), t.get(id)];
    if (mine !== undefined && other !== undefined) {
      if (sameMessage(mine, other) || (was !== undefined && sameMessage(mine, was))) out.push(other);
      else if (was !== undefined && sameMessage(other, was)) out.push(mine);
      else {
        out.push(other, messageCopy(mine));
        conflict = true;
      }
    } else {
      const only = (mine ?? other)!;
      // Added on one side: kept. Removed on the other: gone, unless this side changed it (an edit beats a delete).
      if (was === undefined || !sameMessage(only, was)) out.push(only);
    }
  }
  return { messages: out.sort(byCreated), conflict };
}

/**
 * Merges a conversation both sides changed since `base` (undefined: made on both sides under one
 * id, as two machines importing one vault do). A conflict is settled inside the conversation, with
 * no copy of the whole (so, unlike a snippet's merge, it needs no id for a copy).
 */
export function mergeConversation(
  base: VaultConversation | undefined,
  ours: VaultConversation | undefined,
  theirs: VaultConversation | undefined,
): RecordMerge<VaultConversation> {
  if (ours === undefined) return { merged: theirs, ...(theirs !== undefined && base !== undefined ? { notice: 'remote-edit-kept' as const } : {}) };
  if (theirs === undefined) return { merged: ours, ...(base !== undefined ? { notice: 'local-edit-kept' as const } : {}) };
  // Made on both sides: nothing in common but what both have (fields equal on both sides stay).
  const was = base ?? { ...theirs, name: undefined, favorited: false, assets: [], websites: [], messages: [] };
  const name = pick(was.name, ours.name, theirs.name);
  const type = pick(was.type, ours.type, theirs.type);
  const favorited = pick(was.favorited, ours.favorited, theirs.favorited);
  const messages = mergeMessages(was.messages, ours.messages, theirs.messages);
  const merged: VaultConversation = {
    id: theirs.id,
    ...(name.value !== undefined ? { name: name.value } : {}),
    type: type.value,
    favorited: favorited.value,
    assets: sortedTexts(mergeSet(was.assets, ours.assets, theirs.assets, (id) => id)),
    websites: sortedWebsites(namedWebsites(mergeSet<VaultWebsite>(was.websites, ours.websites, theirs.websites, (site) => site.url), was.websites, ours.websites, theirs.websites)),
    created: pick(was.created, ours.created, theirs.created).value,
    updated: Date.parse(ours.updated) > Date.parse(theirs.updated) ? ours.updated : theirs.updated,
    messages: messages.messages,
  };
  const conflict = name.conflict || type.conflict || favorited.conflict || messages.conflict;
  // The summary names this machine's name, so the user can take it back.
  const localName = name.conflict && ours.name !== undefined ? { localName: ours.name } : {};
  return { merged, ...(conflict ? { notice: 'conflict' as const } : {}), ...localName };
}
