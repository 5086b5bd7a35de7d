/**
 * The snippet documents' reads and writes over Satchel's HTTP client, so they work the same when
 * another window hosts the data.
 *
 * A save writes through the edit operation (POST /satchel/assets/{id}/edit with If-Match), not the
 * interface's POST /asset/update: both are the same core write (one transaction, one revision,
 * durable before the reply), but the edit carries only the document's text. An update carries the
 * whole asset back, so a 1 MiB snippet would cross the port twice per save, and a save would
 * send every other field as this window last read it.
 */
import type { Asset, Format } from '../../core/wire.ts';
import type { SatchelClient } from '../../client/satchelClient.ts';
import { assetLanguage } from '../../client/assets.ts';
import type { SnippetPart } from './snippetPaths.ts';
import type { PartRead, SnippetHead, SnippetStore } from './snippetVersions.ts';

const encoder = new TextEncoder();

export function clientSnippetStore(client: () => SatchelClient): SnippetStore {
  return {
    async head(id) {
      const { asset, revision } = await client().assets.getRevised(id, false);
      return headOf(asset, revision);
    },
    async read(id, part) {
      if (part === 'content') {
        const { asset, revision } = await client().assets.getRevised(id, true);
        return { ...headOf(asset, revision), bytes: contentBytes(asset) };
      }
      const [{ asset, revision }, info] = await Promise.all([client().assets.getRevised(id, false), client().snippets.info(id)]);
      return { ...headOf(asset, revision), bytes: encoder.encode(info.description ?? '') } satisfies PartRead;
    },
    async write(id, part, text, expectedRevision) {
      const edit = part === 'content' ? { content: text } : { description: text };
      const { asset, revision } = await client().history.edit(id, edit, { expectedRevision });
      return headOf(asset, revision);
    },
  };
}

/** Renames a snippet, and gives it another language when `language` is set. */
export async function renameSnippet(client: SatchelClient, id: string, name: string, language?: string): Promise<void> {
  await client.history.edit(id, { name, ...(language !== undefined ? { language } : {}) });
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

/** The original format's content: its text, or its bytes when it holds no text (an image). */
function contentBytes(asset: Asset): Uint8Array {
  const format = originalOf(asset);
  const text = format?.fragment?.string?.raw ?? format?.file?.string?.raw;
  if (text !== undefined) return encoder.encode(text);
  const raw = format?.fragment?.bytes?.raw ?? format?.file?.bytes?.raw;
  return raw ? Uint8Array.from(raw) : new Uint8Array();
}
