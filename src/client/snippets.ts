/** Saved assets as editor snippets: completion candidates, snippet facts and `.code-snippets` export (Satchel's own operations). */
import type { Asset } from '../core/piecesTypes.ts';
import { snippetOperations as op, ASSETS_BY_ID_MAX, type CodeSnippetsExport, type CompletionReply, type SnippetInfo } from '../wire/snippets.ts';
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

  /** One snippet, or every snippet with the tag, as a `.code-snippets` file (secrets as placeholders unless `includeSecrets`). */
  exportCodeSnippets(selection: { asset: string } | { tag: string }, options: { includeSecrets?: boolean } = {}): Promise<CodeSnippetsExport> {
    return this.http.call(op.export, { query: { ...selection, ...(options.includeSecrets ? { includeSecrets: 'true' } : {}) } });
  }
}
