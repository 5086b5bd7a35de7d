/**
 * The snippet documents' reads and writes over Satchel's HTTP client, so they work the same when
 * another window hosts the data.
 *
 * A read takes the snippet's head (its revision, without content) and then that revision whole
 * (GET /satchel/assets/{id}/revisions/{revision}): the text and the description exactly as they
 * were at the revision the head named, the content once. The asset's own reply carries its text
 * in several formats, three times the bytes of a 1 MiB snippet, all parsed in the extension host.
 *
 * A save writes through the edit operation (POST /satchel/assets/{id}/edit with If-Match), not the
 * interface's POST /asset/update: both are the same core write (one transaction, one revision,
 * durable before the reply), but the edit carries only the document's text. An update carries the
 * whole asset back, so a 1 MiB snippet would cross the port twice per save, and a save would
 * send every other field as this window last read it. Its reply leaves the content out
 * (`transferables=false`): the window has the text it just wrote.
 */
import type { Asset, Format } from '../../core/piecesTypes.ts';
import type { SatchelClient } from '../../client/satchelClient.ts';
import type { RevisionContentReply } from '../../wire/history.ts';
import { assetLanguage } from '../../client/assets.ts';
import type { PartRead, SnippetHead, SnippetStore } from './snippetVersions.ts';

const encoder = new TextEncoder();

export function clientSnippetStore(client: () => SatchelClient): SnippetStore {
  const head = async (id: string): Promise<SnippetHead> => {
    const { asset, revision } = await client().assets.getRevised(id, false);
    return headOf(asset, revision);
  };
  return {
    head,
    async read(id, part) {
      const at = await head(id);
      const revision = await client().history.get(id, at.revision);
      const bytes = part === 'content' ? contentBytes(revision.content) : encoder.encode(revision.description ?? '');
      return { ...at, bytes } satisfies PartRead;
    },
    async write(id, part, text, expectedRevision) {
      const edit = part === 'content' ? { content: text } : { description: text };
      const { asset, revision } = await client().history.edit(id, edit, { expectedRevision }, { transferables: false });
      return headOf(asset, revision);
    },
  };
}

/** Renames a snippet, and gives it another language when `language` is set. */
export async function renameSnippet(client: SatchelClient, id: string, name: string, language?: string): Promise<void> {
  await client.history.edit(id, { name, ...(language !== undefined ? { language } : {}) }, {}, { transferables: false });
}

function headOf(asset: Asset, revision: string | undefined): SnippetHead {
  if (revision === undefined) throw new Error(`The host sent no revision for ${asset.id}`);
  const original = originalOf(asset);
  return {
    revision,
    updated: Date.parse(asset.updated?.value ?? '') || 0,
    created: Date.parse(asset.created?.value ?? '') || 0,
    readonly: original?.classification?.generic === 'IMAGE',
    name: asset.name || 'Untitled',
    language: assetLanguage(asset),
  };
}

function originalOf(asset: Asset): Format | undefined {
  const formats = asset.formats?.iterable ?? [];
  return formats.find((format) => format.id === asset.original?.id) ?? formats[0];
}

/** A revision's content: its text, or its bytes when it holds no text (an image). */
function contentBytes(content: RevisionContentReply): Uint8Array {
  return 'text' in content ? encoder.encode(content.text) : Uint8Array.from(Buffer.from(content.base64, 'base64'));
}
