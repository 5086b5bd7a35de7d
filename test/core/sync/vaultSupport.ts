/** Shared scaffolding of the vault and sync tests: a varied library, and every record of a store read whole. */
import type { Satchel } from '../../../src/core/satchel.ts';
import { LibraryRecords } from '../../../src/core/sync/libraryRecords.ts';
import { ConversationRecords } from '../../../src/core/sync/conversationRecords.ts';
import type { VaultConversation } from '../../../src/core/sync/vaultConversations.ts';
import type { VaultAsset } from '../../../src/core/sync/vaultFormat.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import type { SeedInput } from '../../../src/core/assets/inputs.ts';

export function recordsOf(core: Satchel): LibraryRecords {
  return new LibraryRecords({ database: core.context.database, ...core.assets.bulkTargets() });
}

/** Every ordinary asset of the store as a record, by id. */
export function allRecords(core: Satchel): Map<string, VaultAsset> {
  const records = recordsOf(core);
  const out = new Map<string, VaultAsset>();
  for (const id of core.assets.identifiers()) {
    const record = records.read(id);
    if (record) out.set(id, record);
  }
  return out;
}

export function seed(text: string, extra: { name?: string; ext?: string; tags?: string[] } = {}): SeedInput {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      metadata: { ...(extra.name ? { name: extra.name } : {}), ...(extra.tags ? { tags: extra.tags.map((t) => ({ text: t })) } : {}) },
      format: { fragment: { string: { raw: text } }, classification: { specific: extra.ext ?? 'ts' } },
    },
  } as SeedInput;
}

/** A PNG's first bytes and some that are not UTF-8. */
export const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x10, 0x80, 0x00];

/** A library with one of everything a record keeps. */
export async function variedLibrary(core: Satchel): Promise<string[]> {
  const by = TEST_WRITE;
  const plain = await core.assets.writes.create(seed('export const x = 1;\n', { name: 'Plain', tags: ['zeta', 'Alpha'] }), by);
  const crlf = await core.assets.writes.create(seed('line one\r\nline two\r\n', { name: '  Spaced name  ', ext: 'py' }), by);
  const unicode = await core.assets.writes.create(seed('const s = "é ✓ 𝄞 \u2028 \\u0000";', { name: 'Ünïcödé "quoted" name: yes', tags: ['emoji 🎉', 'ß'] }), by);
  const twin = await core.assets.writes.create(seed('export const x = 1;\n', { name: 'Same text as Plain' }), by);
  const template = await core.assets.writes.create(seed('for (const ${1:item} of ${2:items}) {\n\t$0\n}', { name: 'For of', tags: ['forof', 'loop'] }), by);
  const image = await core.assets.writes.create(
    { type: 'SEEDED_ASSET', asset: { metadata: { name: 'Logo' }, format: { fragment: { bytes: { raw: PNG_BYTES } } } } } as SeedInput,
    by,
  );
  core.assets.writes.edit(plain.id, { description: 'Line one of the description\n\n---\nnot front matter\n' }, by);
  core.assets.writes.createWebsite({ url: 'https://example.com/b', name: 'Example B', asset: plain.id }, by);
  core.assets.writes.createWebsite({ url: 'https://example.com/a', name: 'Example A', asset: plain.id }, by);
  core.assets.writes.update({ id: unicode.id, favorited: true } as never, by);
  core.snippets.setInfo(template.id, { syntax: true, prefixes: ['forof'] }, by);
  const conversation = core.conversations.create(
    {
      type: 'COPILOT',
      name: 'About the plain snippet',
      favorited: true,
      messages: [
        { role: 'USER', fragment: { string: { raw: 'What does it export?\n---\nnot front matter' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'A constant, `x`.' } }, sentiment: 'LIKE' },
      ],
      assets: { iterable: [{ id: plain.id }] },
    } as never,
    false,
  );
  core.conversations.create({ type: 'COPILOT', messages: [] } as never, false);
  return [plain.id, crlf.id, unicode.id, twin.id, template.id, image.id, conversation.id];
}

export function conversationsOf(core: Satchel): ConversationRecords {
  return new ConversationRecords(core.context, (id) => core.assets.exists(id));
}

/** Every conversation of the store as a record, by id. */
export function allConversations(core: Satchel): Map<string, VaultConversation> {
  const records = conversationsOf(core);
  return new Map(records.ids().map((id) => [id, records.read(id)!]));
}
