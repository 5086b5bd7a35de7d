/**
 * Snippets as MCP resources, `satchel://assets/{id}`: a client can attach a saved snippet to a
 * prompt by URI. The listing offers the newest ones (a store may hold a hundred thousand; search
 * finds the rest and its ids resolve here).
 */
import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Satchel } from '../../core/satchel.ts';
import { NotFoundError } from '../../core/errors.ts';
import { contentOf } from '../../core/assets/content.ts';
import { LIMITS } from '../../core/limits.ts';
import { imageTypeOf } from '../../core/assets/specifics.ts';
import { MAX_CONTENT_CHARS, cutNote, languageName, originalOf, wholeAtResource } from './snippetViews.ts';
import { agentOpening } from './snippetOpening.ts';
import { agentName, agentView } from '../agentSecrets.ts';
import type { SecretTexts } from '../../core/secrets/detector.ts';

export const ASSET_URI_PREFIX = 'satchel://assets/';
/** Snippets a resource listing offers. */
const LISTED = 100;
/** The MCP specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', webp: 'image/webp' };

export function assetUri(id: string): string {
  return `${ASSET_URI_PREFIX}${encodeURIComponent(id)}`;
}

export function registerSnippetResources(server: McpServer, core: Satchel): void {
  const template = new ResourceTemplate(`${ASSET_URI_PREFIX}{id}`, {
    list: async () => {
      // Names and languages: the listing reads no document. A name holding a value shows its placeholder (issue 32).
      const listed = core.assets.summaries(core.assets.newest(LISTED));
      const names = await Promise.all(listed.map((snippet) => agentName(core, snippet.name, snippet.id)));
      return {
        resources: listed.map((snippet, index) => ({
          uri: assetUri(snippet.id),
          name: names[index]!,
          description: `${languageName(snippet.language)} snippet`,
          mimeType: 'text/plain',
        })),
      };
    },
  });

  server.registerResource(
    'snippet',
    template,
    {
      title: 'Saved snippet',
      description: `A snippet saved in Satchel, by id: its content as stored (one over ${LIMITS.contentChars} characters, stored before that limit, cut at its first ${MAX_CONTENT_CHARS} with a note).`,
      mimeType: 'text/plain',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const raw = variables.id;
      let id: string;
      let texts: SecretTexts | undefined;
      try {
        id = decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? ''));
        // Its length alone from its stored head (no text read to learn it).
        const { chars } = core.assets.opening(id, 0);
        if (!wholeAtResource(chars)) {
          // Over a snippet's content limit (an older store's): cut as get_snippet cuts it, saying so.
          const shown = await agentOpening(core, id, core.assets.get(id, { transferables: false }).name ?? '');
          return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${shown.text}\n\n${cutNote(id, shown.text.length, shown.chars)}` }] };
        }
        // Its text taken out of its document by SQLite, with its name and description, read once: the
        // door tells them for the stored ones by their hash (storedDoors.ts), so the text is neither
        // parsed out of its document nor read or scanned a second time.
        texts = core.assets.secrets.textsOf(id);
        if (texts === undefined) throw new NotFoundError('asset', id);
      } catch (error) {
        // A malformed escape (URIError) names no snippet either.
        if (error instanceof NotFoundError || error instanceof URIError) {
          throw new McpError(RESOURCE_NOT_FOUND, `No snippet at ${uri.href}`, { uri: uri.href });
        }
        throw error;
      }
      if (texts.code === '') {
        // No text: an image or other bytes (small: the content limit), sent as a blob.
        const original = originalOf(core.assets.get(id, { transferables: true }));
        const content = original ? contentOf(original) : undefined;
        if (content?.bytes && content.text === '') {
          const image = imageTypeOf(Uint8Array.from(content.bytes.slice(0, 16)));
          const mimeType = (image && IMAGE_TYPES[image]) ?? 'application/octet-stream';
          return { contents: [{ uri: uri.href, mimeType, blob: Buffer.from(content.bytes).toString('base64') }] };
        }
      }
      // Each value as its placeholder (issue 32); only the code is sent.
      const view = await agentView(core, { code: texts.code, name: texts.name ?? '', description: texts.description }, id);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: view.texts.code }] };
    },
  );
}
