/**
 * The snippets area: what makes a saved asset a VS Code snippet (snippet syntax, prefixes), the
 * completion candidates an editor offers as the user types, and export to a `.code-snippets` file.
 * Completion answers from memory (the title index and the language table) and reads only the rows
 * it returns, so it costs about the same at 100k assets as at 1k.
 */
import type { StoreContext } from '../context.ts';
import type { Disposable } from '../events.ts';
import type { WriteOptions } from '../history/authors.ts';
import type { AssetService } from '../assets/assetService.ts';
import { textOf } from '../assets/assetStore.ts';
import type { StoredAsset } from '../assets/storedAsset.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { specificFromLanguageName } from '../classify/languages.ts';
import { LanguageTable } from './languageTable.ts';
import { hasWordStarting } from '../search/titleMatches.ts';
import { factsOfRow, normalizePrefixes, PLAIN_SNIPPET, SnippetFactsStore, type SnippetFacts } from './snippetFacts.ts';
import { redactTexts, type DoorSecrets } from '../secrets/doorSecrets.ts';
import { codeSnippetsFile, type ExportableSnippet } from './codeSnippets.ts';
import { safeFileName } from '../fileNames.ts';

/** A saved asset as a snippet: its facts, and what a preview shows besides its code (tags, description). */
export interface SnippetInfo extends SnippetFacts {
  readonly asset: string;
  readonly tags: readonly string[];
  readonly description?: string;
}

export interface CompletionQuery {
  /** What the user typed (the word before the cursor, or what follows the trigger prefix); '' for the newest. */
  readonly query: string;
  /** The document's language as VS Code or a person names it (`typescript`, `ts`); unknown or absent: language-neutral snippets only. */
  readonly language?: string | undefined;
  readonly limit?: number | undefined;
}

export interface CompletionCandidate {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  /** The word of the name or tags that holds what was typed, lower-cased (absent for the newest). */
  readonly match?: string;
  readonly prefixes: readonly string[];
  readonly syntax: boolean;
  /** The text, when at most MAX_CANDIDATE_TEXT characters (a larger one is inserted by id). */
  readonly text?: string;
  /** Characters of the text (an estimate from the stored size when the text is left out). */
  readonly length: number;
  readonly updated: string;
}

export interface CompletionReply {
  readonly candidates: readonly CompletionCandidate[];
}

export interface CodeSnippetsExport {
  /** A file name for it (`<tag or name>.code-snippets`). */
  readonly fileName: string;
  /** The file's JSON text. */
  readonly content: string;
  readonly count: number;
  /** Snippets written with their secrets replaced by placeholders (ask with includeSecrets for the values). */
  readonly redacted: number;
}

export const DEFAULT_COMPLETIONS = 50;
export const MAX_COMPLETIONS = 200;
/** Longer typed words are no snippet's name or prefix. */
export const MAX_QUERY_CHARS = 128;
/** Larger texts stay out of a completion reply (every keystroke may ask for one): the editor inserts them by id. */
export const MAX_CANDIDATE_TEXT = 16 * 1024;
/** Stored documents above this hold a text above MAX_CANDIDATE_TEXT for sure, or nearly: they are not read. */
const MAX_CANDIDATE_DATA = 4 * MAX_CANDIDATE_TEXT;

type Row = { id: string; name: string; language: string; updated: string; size: number; data: string | null; syntax: number | null; prefixes: string | null };

export class SnippetService implements Disposable {
  private readonly context: StoreContext;
  private readonly assets: AssetService;
  private readonly facts: SnippetFactsStore;
  private readonly languages: LanguageTable;
  private readonly secrets: () => DoorSecrets | undefined;

  constructor(context: StoreContext, assets: AssetService, secrets: () => DoorSecrets | undefined = () => undefined) {
    this.context = context;
    this.assets = assets;
    this.secrets = secrets;
    this.facts = new SnippetFactsStore(context.database);
    this.languages = new LanguageTable(context);
  }

  info(assetId: string): SnippetInfo {
    if (!this.assets.exists(assetId)) throw new NotFoundError('asset', assetId);
    const description = this.descriptions([assetId]).get(assetId);
    const tags = this.assets.labels.tagsOfAsset(assetId).map((tag) => tag.text);
    return { asset: assetId, ...this.facts.get(assetId), tags, ...(description !== undefined ? { description } : {}) };
  }

  /**
   * Sets whether the asset is snippet syntax and/or its prefixes. A new prefix also becomes one of
   * its tags (completion matches names and tags); a removed one leaves its tag.
   */
  setInfo(assetId: string, change: { readonly syntax?: boolean | undefined; readonly prefixes?: readonly string[] | undefined }, by: WriteOptions): SnippetInfo {
    const prefixes = change.prefixes === undefined ? undefined : normalizePrefixes(change.prefixes);
    this.context.transaction(() => {
      if (!this.assets.exists(assetId)) throw new NotFoundError('asset', assetId);
      const current = this.facts.get(assetId);
      const next: SnippetFacts = { syntax: change.syntax ?? current.syntax, prefixes: prefixes ?? current.prefixes };
      this.facts.put(assetId, next);
      const tagged = new Set(this.assets.labels.tagsOfAsset(assetId).map((tag) => tag.text.toLowerCase()));
      for (const prefix of prefixes ?? []) {
        if (tagged.has(prefix.toLowerCase())) continue;
        this.assets.writes.associate(assetId, 'tag', this.assets.labels.createTag({ text: prefix }).id, by);
      }
      this.context.publish({ kind: 'asset', id: assetId });
    });
    return this.info(assetId);
  }

  /** The asset is gone for good (deleted from the trash): its facts, kept while it could come back, go too. */
  forget(assetId: string): void {
    this.facts.put(assetId, PLAIN_SNIPPET);
  }

  completions(input: CompletionQuery): CompletionReply {
    const query = input.query.trim();
    const limit = Math.min(MAX_COMPLETIONS, Math.max(1, input.limit ?? DEFAULT_COMPLETIONS));
    if (query.length > MAX_QUERY_CHARS || /\s/.test(query)) return { candidates: [] };
    this.languages.refresh();
    const weigh = this.languages.weigher(input.language ? specificFromLanguageName(input.language) : undefined);
    const lower = query.toLowerCase();
    let matches: ReadonlyArray<{ readonly rowid: number; readonly title: string }>;
    if (query.length >= 2) matches = this.assets.titleCompletions(query, weigh, limit);
    else {
      // Nothing or one character typed: the newest snippets (with a word starting with it). One
      // character starts a word in most titles; ranking them all cost 16–50 ms at 100k assets.
      const titles = new Map<number, string>();
      const starting = (rowid: number): boolean => {
        const title = this.assets.titleOf(rowid);
        if (title === undefined || !hasWordStarting(title, lower)) return false;
        titles.set(rowid, title);
        return true;
      };
      matches = this.languages.newest(weigh, limit, lower === '' ? undefined : starting).map((rowid) => ({ rowid, title: titles.get(rowid) ?? '' }));
    }
    return { candidates: this.candidates(matches, lower) };
  }

  /**
   * One snippet (`asset`) or every snippet tagged `tag`, as a VS Code `.code-snippets` file; each secret
   * written as its placeholder unless `includeSecrets` (issue 32: the editor asks first).
   */
  async exportCodeSnippets(selection: { readonly asset?: string | undefined; readonly tag?: string | undefined; readonly includeSecrets?: boolean | undefined }): Promise<CodeSnippetsExport> {
    if ((selection.asset === undefined) === (selection.tag === undefined)) throw new InvalidInputError('Give either an asset or a tag to export');
    const ids = selection.asset !== undefined ? [selection.asset] : this.assets.labels.assetsTagged(selection.tag!);
    if (selection.asset !== undefined && !this.assets.exists(selection.asset)) throw new NotFoundError('asset', selection.asset);
    const rows = this.context.database
      .prepare(
        `SELECT a.id AS id, a.name AS name, a.language AS language, a.data AS data FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value
         WHERE a.suggested = 0 ORDER BY a.created, a.rowid`,
      )
      .all(JSON.stringify(ids)) as Array<{ id: string; name: string; language: string; data: string }>;
    const facts = this.facts.getMany(ids);
    const descriptions = this.descriptions(ids);
    const secrets = selection.includeSecrets === true ? undefined : this.secrets();
    let redacted = 0;
    const snippets: ExportableSnippet[] = [];
    for (const row of rows) {
      const description = descriptions.get(row.id);
      const texts = { code: textOf(JSON.parse(row.data) as StoredAsset), name: row.name, ...(description !== undefined ? { description } : {}) };
      const hidden = secrets === undefined ? { texts, redacted: false } : redactTexts(texts, await secrets.findingsIn(texts, row.id));
      if (hidden.redacted) redacted++;
      snippets.push({
        name: hidden.texts.name,
        text: hidden.texts.code,
        language: row.language,
        syntax: facts.get(row.id)?.syntax ?? false,
        prefixes: facts.get(row.id)?.prefixes ?? [],
        ...(hidden.texts.description !== undefined ? { description: hidden.texts.description } : {}),
      });
    }
    // The file is named by the snippet's name as written (a value in a name stays out of the file name too).
    const base = safeFileName(selection.tag ?? snippets[0]?.name ?? 'snippets', 'snippets');
    return { fileName: `${base}.code-snippets`, content: codeSnippetsFile(snippets), count: snippets.length, redacted };
  }

  /** Reads what completion keeps in memory (the language table) between other work, ahead of the first keystroke. */
  warm(): Promise<void> {
    return this.languages.warm();
  }

  dispose(): void {
    this.languages.dispose();
  }

  /**
   * The matched rows, in the order given, read with one statement: text only from small documents,
   * with their snippet facts. What only a preview shows (tags, description) is left to `info`: a
   * completion is asked for at every keystroke.
   */
  private candidates(matches: ReadonlyArray<{ readonly rowid: number; readonly title: string }>, query: string): CompletionCandidate[] {
    if (matches.length === 0) return [];
    const rows = this.context.database
      .prepare(
        `SELECT j.key AS at, a.id AS id, a.name AS name, a.language AS language, a.updated AS updated, octet_length(a.data) AS size,
                CASE WHEN octet_length(a.data) <= ? THEN a.data END AS data, f.syntax AS syntax, f.prefixes AS prefixes
         FROM json_each(?) j CROSS JOIN assets a ON a.rowid = j.value LEFT JOIN snippet_facts f ON f.asset_id = a.id
         WHERE a.suggested = 0 AND a.pseudo = 0 AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.asset_id = a.id) ORDER BY j.key`,
      )
      .all(MAX_CANDIDATE_DATA, JSON.stringify(matches.map((match) => match.rowid))) as Array<Row & { at: number }>;
    // Memories are notes, not code to insert: none is a candidate (a row left out shifts no title).
    const titles = new Map(rows.map((row) => [row.id, matches[row.at]?.title ?? '']));
    return rows.map((row) => {
      const text = row.data === null ? undefined : textOf(JSON.parse(row.data) as StoredAsset);
      const fitting = text !== undefined && text.length <= MAX_CANDIDATE_TEXT ? text : undefined;
      const facts = factsOfRow(row);
      const match = query === '' ? undefined : matchedWord(titles.get(row.id) ?? '', query);
      return {
        id: row.id,
        name: row.name,
        language: row.language,
        ...(match !== undefined ? { match } : {}),
        prefixes: facts.prefixes,
        syntax: facts.syntax,
        ...(fitting !== undefined ? { text: fitting } : {}),
        length: text?.length ?? row.size,
        updated: row.updated,
      };
    });
  }

  private descriptions(ids: readonly string[]): Map<string, string> {
    return this.descriptionsOf(this.context.links.partnersOfEach('asset', ids));
  }

  /** Each asset's DESCRIPTION annotation (the first linked), where Pieces keeps a snippet's description. */
  private descriptionsOf(partners: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>): Map<string, string> {
    const annotationIds = [...new Set([...partners.values()].flatMap((kinds) => kinds.get('annotation') ?? []))];
    if (annotationIds.length === 0) return new Map();
    const annotations = this.context.records.getMany<{ type?: string; text?: string }>('annotation', annotationIds);
    const out = new Map<string, string>();
    for (const [asset, kinds] of partners) {
      for (const id of kinds.get('annotation') ?? []) {
        const annotation = annotations.get(id);
        if (annotation?.type === 'DESCRIPTION' && typeof annotation.text === 'string') {
          out.set(asset, annotation.text);
          break;
        }
      }
    }
    return out;
  }
}

/** The word of `title` holding `query` (both lower-cased): the first one starting with it, else the first containing it. */
export function matchedWord(title: string, query: string): string | undefined {
  const words = title.split(/[^\p{L}\p{N}_$]+/u);
  return words.find((word) => word.startsWith(query)) ?? words.find((word) => word.includes(query));
}
