/** Saved assets as editor snippets: completion candidates, snippet facts and `.code-snippets` export (Satchel's own operations). */
import type { Asset } from '../core/piecesTypes.ts';
import { snippetOperations as op, ASSETS_BY_ID_MAX, type AssetGroupCounts, type AssetGroupPage, type CodeSnippetsExport, type CompletionReply, type GroupBy, type SnippetInfo } from '../wire/snippets.ts';
import type { HttpTransport } from './http.ts';

export class SnippetsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** Candidates for what the user typed in a document of `language` (a VS Code language id). */
  completions(query: string, options: { language?: string | undefined; limit?: number; signal?: AbortSignal } = {}): Promise<CompletionReply> {
    return this.http.call(op.completions, {
      query: { query, language: options.language, limit: options.limit },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  info(asset: string, signal?: AbortSignal): Promise<SnippetInfo> {
    return this.http.call(op.info, { params: { asset }, ...(signal ? { signal } : {}) });
  }

  setInfo(asset: string, change: { syntax?: boolean; prefixes?: readonly string[] }): Promise<SnippetInfo> {
    return this.http.call(op.setInfo, { params: { asset }, body: change });
  }

  /**
   * The assets among `ids` that exist (others are left out), without their content unless
   * `transferables`: a request per ASSETS_BY_ID_MAX ids, one after another.
   */
  async byId(ids: readonly string[], options: { transferables?: boolean; signal?: AbortSignal } = {}): Promise<Asset[]> {
    const found: Asset[] = [];
    for (let at = 0; at < ids.length; at += ASSETS_BY_ID_MAX) {
      const reply = await this.http.call(op.byId, {
        query: { transferables: options.transferables ?? false },
        body: { ids: ids.slice(at, at + ASSETS_BY_ID_MAX) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      found.push(...(reply.iterable ?? []));
    }
    return found;
  }

  /** How many snippets each language or tag holds (memories apart), for a tree that pages its groups. */
  groups(by: GroupBy, signal?: AbortSignal): Promise<AssetGroupCounts> {
    return this.http.call(op.groups, { query: { by }, ...(signal ? { signal } : {}) });
  }

  /** One page of a group (`key` from `groups`), in id order after `after`, without content. */
  groupPage(by: GroupBy, key: string, options: { after?: string; limit?: number; signal?: AbortSignal } = {}): Promise<AssetGroupPage> {
    return this.http.call(op.groupPage, {
      query: { by, key, after: options.after ?? '', limit: options.limit },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** One snippet, or every snippet with the tag, as a `.code-snippets` file (secrets as placeholders unless `includeSecrets`). */
  exportCodeSnippets(selection: { asset: string } | { tag: string }, options: { includeSecrets?: boolean } = {}): Promise<CodeSnippetsExport> {
    return this.http.call(op.export, { query: { ...selection, ...(options.includeSecrets ? { includeSecrets: 'true' } : {}) } });
  }
}
