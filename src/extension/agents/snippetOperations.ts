/**
 * The snippet operations the language-model tools and @satchel share, over the current host
 * connection (whichever window or CLI hosts). Writes go through the same client calls as the
 * views' commands, so they are durable before they answer and appear on the streams.
 */
import type { Asset } from '../../core/piecesTypes.ts';
import type { ServerController } from '../serverController.ts';
import { specificFromLanguageName } from '../../core/classify/languages.ts';
import { ClientError } from '../../client/errors.ts';
import { detail, summarize, type ShownTexts, type SnippetDetail, type SnippetSummary } from './snippetText.ts';
import { assetText } from '../../client/assets.ts';
import type { Author } from '../../core/history/authors.ts';
import type { AgentSaveReply, AgentWriteResult } from '../../client/agentChanges.ts';

/** No host answers (starting, waiting for another window, failed). */
export class NotConnectedError extends Error {
  constructor() {
    super('Satchel is not connected to its server yet (it is starting, or another window is taking over). Try again in a moment.');
    this.name = 'NotConnectedError';
  }
}

export interface SearchInput {
  readonly query: string;
  readonly tags?: readonly string[];
  readonly language?: string;
  readonly limit?: number;
}

export interface SaveInput {
  readonly content: string;
  readonly name?: string;
  readonly tags?: readonly string[];
  /** A ClassificationSpecific such as `ts`; detected by the server when absent. */
  readonly language?: string;
}

/** An agent's change of a snippet it read at `expectedRevision`; each field left out stays. */
export interface UpdateInput {
  readonly id: string;
  readonly expectedRevision: string;
  readonly content?: string;
  readonly name?: string;
  /** The whole new set of tags. */
  readonly tags?: readonly string[];
  readonly language?: string;
  /** '' removes it. */
  readonly description?: string;
}

export interface DeleteInput {
  readonly id: string;
  readonly expectedRevision: string;
}

/** A snippet with the revision it was read at (what an update or delete names). */
export type RevisedDetail = SnippetDetail & { readonly revision: string | undefined };

export type SavedCheck =
  | { readonly saved: true; readonly match: SnippetSummary }
  | { readonly saved: false; readonly worthSaving: boolean };

const DEFAULT_LIMIT = 10;
/** Assets per request to the host's agent view (its limit). */
const VIEW_BATCH = 100;
const MAX_LIMIT = 50;

export class SnippetOperations {
  private readonly server: ServerController;

  constructor(server: ServerController) {
    this.server = server;
  }

  private get client() {
    const connection = this.server.connection;
    if (!connection) throw new NotConnectedError();
    return connection.client;
  }

  async search(input: SearchInput, signal?: AbortSignal): Promise<SnippetSummary[]> {
    const found = await this.client.assets.search(input.query, { ...(input.tags?.length ? { tags: input.tags } : {}), ...(signal ? { signal } : {}) });
    const assets = (found.iterable ?? []).map((hit) => hit.asset).filter((asset): asset is Asset => Boolean(asset));
    const language = input.language ? (specificFromLanguageName(input.language) ?? input.language.toLowerCase()) : undefined;
    const wanted = assets.filter((asset) => !language || summarize(asset).language === language).slice(0, clampLimit(input.limit));
    return (await this.shown(wanted, input.query)).map(({ asset, texts }) => summarize(asset, texts));
  }

  /**
   * Assets as an agent may read them (issue 32): the host's agent view puts each secret's placeholder
   * where its value is; with a query, a hit found only by a secret is left out.
   */
  private async shown(assets: readonly Asset[], query?: string): Promise<Array<{ asset: Asset; texts: ShownTexts }>> {
    const out: Array<{ asset: Asset; texts: ShownTexts }> = [];
    for (let at = 0; at < assets.length; at += VIEW_BATCH) {
      const batch = assets.slice(at, at + VIEW_BATCH);
      const reply = await this.client.agentChanges.view(batch.map((asset) => ({ asset: asset.id, code: assetText(asset), name: asset.name ?? '', websites: websitesOf(asset) })), query);
      batch.forEach((asset, index) => {
        const item = reply.items[index];
        if (item !== undefined && !item.foundOnlyBySecret) out.push({ asset, texts: { name: item.name, code: item.code, websites: (item.websites ?? websitesOf(asset)).map((site) => site.url) } });
      });
    }
    return out;
  }

  /** Full snippets for grounding a model: the top hits, each with its whole code. */
  async searchDetails(input: SearchInput, signal?: AbortSignal): Promise<SnippetDetail[]> {
    const found = await this.client.assets.search(input.query, { ...(input.tags?.length ? { tags: input.tags } : {}), ...(signal ? { signal } : {}) });
    const assets = (found.iterable ?? [])
      .map((hit) => hit.asset)
      .filter((asset): asset is Asset => Boolean(asset))
      .slice(0, clampLimit(input.limit));
    return (await this.shown(assets, input.query)).map(({ asset, texts }) => detail(asset, texts));
  }

  /** A snippet whole, with its current revision (the ETag of the read). */
  async get(id: string): Promise<RevisedDetail> {
    const { asset, revision } = await this.client.assets.getRevised(id);
    const [shown] = await this.shown([asset]);
    return { ...detail(asset, shown?.texts ?? { name: '', code: '', websites: [] }), revision };
  }

  /** `author`: the agent saving it (its history, and the agent changes, name it). */
  async save(input: SaveInput, author: Author): Promise<SnippetDetail> {
    const client = this.client;
    const application = await this.server.application();
    const language = input.language ? specificFromLanguageName(input.language) : undefined;
    const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
    // One write: the snippet with its tags (the reply carries them).
    const created = await client.assets.createFromText({
      text: input.content,
      application,
      ...(language ? { language } : {}),
      ...(input.name?.trim() ? { name: input.name.trim() } : {}),
      ...(tags.length > 0 ? { tags } : {}),
    }, { author });
    const [shown] = await this.shown([created]);
    return detail(created, shown?.texts ?? { name: '', code: '', websites: [] });
  }

  /**
   * An agent's save through the host's agent door: marked as the agent's, or a proposal while the
   * user reviews agent writes first (`@satchel /save`, the user's own command, is `save`).
   */
  agentSave(input: SaveInput, author: Author): Promise<AgentSaveReply> {
    const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
    return this.client.agentChanges.save(
      {
        content: input.content,
        ...(input.name?.trim() ? { name: input.name.trim() } : {}),
        ...(tags.length > 0 ? { tags } : {}),
        ...(input.language ? { language: input.language } : {}),
      },
      author,
    );
  }

  /** An agent's update of a snippet it read at `input.expectedRevision` (refused when it changed since). */
  update(input: UpdateInput, author: Author): Promise<AgentWriteResult> {
    const { id, expectedRevision, ...edit } = input;
    return this.client.agentChanges.update(id, edit, { expectedRevision, author });
  }

  /** An agent's delete of a snippet it read at `input.expectedRevision` (to the trash). */
  delete(input: DeleteInput, author: Author): Promise<AgentWriteResult> {
    return this.client.agentChanges.delete(input.id, { expectedRevision: input.expectedRevision, author });
  }

  /**
   * The most recently changed snippets, newest first: the library is listed without content, and
   * only the newest few are fetched whole (a snippet deleted in between is left out).
   */
  async recent(limit?: number): Promise<SnippetSummary[]> {
    const client = this.client;
    const newest = ((await client.assets.list({ transferables: false })).iterable ?? [])
      .map((asset) => ({ id: asset.id, updated: asset.updated?.value ? String(asset.updated.value) : '' }))
      .sort((a, b) => b.updated.localeCompare(a.updated))
      .slice(0, clampLimit(limit));
    const assets = await Promise.all(newest.map(({ id }) => client.assets.get(id).catch(goneIsUndefined)));
    return (await this.shown(assets.filter((asset): asset is Asset => Boolean(asset)))).map(({ asset, texts }) => summarize(asset, texts));
  }

  /** The connector's saved check: asked as a question, so it records no copy and answers the same twice. */
  async isSaved(content: string): Promise<SavedCheck> {
    const client = this.client;
    const check = await client.connector.saved(content);
    const best = check.kind === 'saved' ? check.matches[0] : undefined;
    const match = best ? (await this.shown([await client.assets.get(best.assetId)]))[0] : undefined;
    if (match) return { saved: true, match: summarize(match.asset, match.texts) };
    return { saved: false, worthSaving: check.kind === 'not_saved' && check.worthSaving };
  }

  /** Whether the host has a local text model in memory (the /qgpt copilot answers with it). */
  async localModelLoaded(): Promise<boolean> {
    const models = (await this.client.models.list()).iterable ?? [];
    return models.some((model) => model.loaded && String(model.usage) !== 'TEXT_EMBEDDING' && String(model.usage) !== 'CODE_CLASSIFICATION');
  }
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/** A snippet deleted between listing and fetching is simply absent; any other failure stands. */
function goneIsUndefined(error: unknown): undefined {
  if (error instanceof ClientError && error.status === 404) return undefined;
  throw error;
}

/** A snippet's websites with a URL, as the host's agent view reads them. */
function websitesOf(asset: Asset): Array<{ url: string; name: string }> {
  return (asset.websites?.iterable ?? []).flatMap((site) => (site.url ? [{ url: site.url, name: site.name ?? site.url }] : []));
}
