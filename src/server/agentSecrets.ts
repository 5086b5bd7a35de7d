/**
 * The agents' door for secrets (issue 32): what an MCP tool or resource gives an agent holds each value
 * the detector finds as its placeholder, a search never finds a snippet by a value alone, an agent that
 * writes a value is told it was kept and flagged, and a placeholder an agent writes back (it read the
 * snippet redacted) takes the stored value again, so the user's copy keeps working.
 */
import type { Satchel } from '../core/satchel.ts';
import { hiddenAcross, redactTexts, restoreTexts, holdsPlaceholder, type SecretTexts } from '../core/secrets/doorSecrets.ts';
export { keptText } from '../core/secrets/doorSecrets.ts';
import type { SecretFinding } from '../core/secrets/findings.ts';
import { HEAD_CHARS } from '../core/assets/assetHeads.ts';
import { NAME_SCAN_CHARS } from '../core/assets/content.ts';

/** Texts as an agent may read them, the findings that hid them, and the hidden values (lowercased, for the search filter). */
export interface AgentView<T extends SecretTexts = SecretTexts> {
  readonly texts: T;
  readonly findings: readonly SecretFinding[];
  readonly values: readonly string[];
}

/** `texts` (of snippet `assetId` when it is one) as an agent may read them. */
export async function agentView<T extends SecretTexts>(core: Satchel, texts: T, assetId?: string): Promise<AgentView<T>> {
  const secrets = core.doorSecrets();
  if (secrets === undefined) return { texts, findings: [], values: [] };
  const findings = await secrets.findingsIn(texts, assetId);
  if (findings.length === 0) return { texts, findings, values: [] };
  const field = (f: SecretFinding): string => (f.field === 'code' ? texts.code : f.field === 'name' ? texts.name : (texts.description ?? ''));
  return { texts: redactTexts(texts, findings).texts, findings, values: findings.map((f) => field(f).slice(f.start, f.end).toLowerCase()) };
}

/**
 * A snippet's text as the door scans it: the opening a reply shows when that is all of it, else more of
 * it (a private key that starts in the opening and ends past it is still found), up to the whole text
 * (`whole`) when the door cannot answer for an opening with the whole text's findings: the store's
 * door can (storedDoors.ts), so a 60 MB text is not read to show 256 KiB of it.
 */
export function scannedText(core: Satchel, id: string, opening: { text: string; chars: number }, whole = false): string {
  if (opening.chars <= opening.text.length) return opening.text;
  if (whole && core.doorSecrets()?.answersForOpenings !== true) return core.assets.text(id) ?? opening.text;
  return core.assets.opening(id, HEAD_CHARS).text;
}

/**
 * A name (of a snippet or conversation) as an agent may read it. A snippet's name is read with the
 * opening of its code it may have been named after (content.ts's `suggestName` reads no further) and its
 * description, so a value found there is hidden where it echoes in the name (echoes.ts), cut short.
 */
export async function agentName(core: Satchel, name: string, assetId?: string): Promise<string> {
  // A snippet scanned and found to hold nothing has nothing to echo: its name alone, no document read (a listing of many).
  if (assetId === undefined || !core.assets.exists(assetId) || (core.assets.secrets.isCurrent(assetId) && core.assets.secrets.findingsFor(assetId).length === 0)) {
    return (await agentView(core, { code: '', name })).texts.name;
  }
  const texts = { code: core.assets.opening(assetId, NAMED_FROM_CHARS).text, name, description: core.snippets.info(assetId).description };
  return (await agentView(core, texts, assetId)).texts.name;
}

/**
 * Texts an agent reads together that are no snippet's fields (a conversation's name and messages) as
 * it may read them: a value found in one is hidden where it echoes in the others (echoes.ts).
 */
export async function agentTexts(core: Satchel, texts: readonly string[]): Promise<string[]> {
  const secrets = core.doorSecrets();
  return secrets === undefined ? [...texts] : (await hiddenAcross(texts, secrets)).map((hidden) => hidden.text);
}

/** Past the blank lines a text may begin with, the part of it a name is made from. */
const NAMED_FROM_CHARS = 2 * NAME_SCAN_CHARS;

/** Words of a query as a search matches them (letters, digits, underscores; three or more). */
function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((word) => word.length >= 3);
}

/**
 * Whether a hit matched `query` only through a hidden value: some word of the query is part of a value
 * and appears nowhere in what the agent may read of the snippet. Such a hit is left out, so a search for
 * a value (or a piece of one) finds nothing.
 */
export function foundOnlyBySecret(query: string, view: AgentView, readable: readonly string[]): boolean {
  if (view.values.length === 0) return false;
  const shown = [view.texts.name, view.texts.code, view.texts.description ?? '', ...readable].join('\n').toLowerCase();
  return queryWords(query).some((word) => view.values.some((value) => value.includes(word)) && !shown.includes(word));
}

/**
 * An agent's edit with the stored values put back where it wrote their placeholders (it read the snippet
 * redacted and sends the whole new text), so an agent's update never replaces a value with a placeholder.
 * Throws what core.agentWrites.update would for a snippet agents do not edit (one over the content limit).
 */
export async function restoredEdit<E extends { content?: string | undefined; name?: string | undefined; description?: string | undefined }>(core: Satchel, id: string, edit: E): Promise<E> {
  const secrets = core.doorSecrets();
  const written = [edit.content, edit.name, edit.description].some((text) => text !== undefined && holdsPlaceholder(text));
  if (secrets === undefined || !written || !core.assets.exists(id)) return edit;
  // Refused before its stored text is read when core refuses the edit anyway: an older store's 60 MB
  // text read, hashed and restored here held the host's event loop about 300 ms.
  core.agentWrites.checkEditable(id);
  const stored: SecretTexts = { code: core.assets.text(id) ?? '', name: core.assets.get(id, { transferables: false }).name ?? '', description: core.snippets.info(id).description };
  const findings = await secrets.findingsIn(stored, id);
  if (findings.length === 0) return edit;
  const incoming = { code: edit.content ?? '', name: edit.name ?? '', description: edit.description ?? '' };
  const back = restoreTexts(incoming, stored, findings);
  return {
    ...edit,
    ...(edit.content !== undefined ? { content: back.code } : {}),
    ...(edit.name !== undefined ? { name: back.name } : {}),
    ...(edit.description !== undefined ? { description: back.description } : {}),
  };
}

/** The findings as an agent's tool result lists them: what and where, never the value. */
export function findingFacts(findings: readonly SecretFinding[]): Array<{ label: string; category: string; field: string; line: number }> {
  return findings.map((f) => ({ label: f.label, category: f.category, field: f.field, line: f.line }));
}
