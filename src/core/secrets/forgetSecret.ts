/**
 * "Forget Secret": a value removed from a snippet and from everything the store kept of it — the
 * snippet's revisions (their contents, descriptions and names), the trash's entries, and the
 * revisions of trashed snippets that held it (a restore from the trash brings those back) — the one
 * write that rewrites history. A backup is taken first (its name is returned: the value can be had
 * back from it, on this machine only). Each value is replaced by its placeholder (findings.ts), so
 * what the snippet was stays readable. The edit of the snippet is an ordinary write (a revision by
 * the user); the rewrite of what came before it runs in one transaction with secure_delete on, so
 * the freed pages are zeroed rather than left in the file.
 */
import type { StoreContext } from '../context.ts';
import type { Backups } from '../backups/backups.ts';
import type { AssetEdit } from '../assets/assetEdits.ts';
import type { WriteOptions } from '../history/authors.ts';
import { textHash } from '../history/state.ts';
import { decodeContent, encodeContent, type EncodedText } from '../history/revisionTexts.ts';
import { NotFoundError } from '../errors.ts';
import { placeholderFor, type SecretField } from './findings.ts';
import type { SecretsService } from './secretsService.ts';

export interface ForgetTargets {
  readonly context: StoreContext;
  readonly secrets: SecretsService;
  readonly backups: Backups;
  /** The asset's texts (as the secrets area reads them). */
  readonly texts: (assetId: string) => { readonly code: string; readonly name?: string | undefined; readonly description?: string | undefined } | undefined;
  /** An ordinary edit of the asset (assets.writes.edit). */
  readonly edit: (assetId: string, edit: AssetEdit, by: WriteOptions) => void;
}

export interface Forgotten {
  /** The backup taken first (backups/…): the only copy that still holds the values. */
  readonly backup: string;
  /** How many distinct values were forgotten. */
  readonly values: number;
  /** Revision texts and names rewritten, and trash entries and records rewritten. */
  readonly revisionTexts: number;
  readonly revisionNames: number;
  readonly trashRows: number;
}

export class SecretForgetter {
  private readonly targets: ForgetTargets;

  constructor(targets: ForgetTargets) {
    this.targets = targets;
  }

  /** Forgets the value of `sensitive` (an id of the asset's `sensitives`), or every value found in the asset. */
  async forget(assetId: string, by: WriteOptions, sensitive?: string): Promise<Forgotten> {
    const { secrets, context } = this.targets;
    await secrets.findingsNow(assetId);
    const chosen = secrets.storedFindings(assetId).filter((f) => sensitive === undefined || f.sensitiveId === sensitive);
    if (chosen.length === 0) throw new NotFoundError('sensitive', sensitive ?? `of asset ${assetId}`);
    const texts = this.targets.texts(assetId);
    if (!texts) throw new NotFoundError('asset', assetId);
    const field = (name: SecretField): string => texts[name] ?? '';
    // Each value with its placeholder, longest first (a value inside another is replaced with it).
    const values = new Map<string, string>();
    for (const finding of chosen) {
      const value = field(finding.field).slice(finding.start, finding.end);
      if (value.length > 0 && !values.has(value)) values.set(value, placeholderFor(finding));
    }
    const ordered = [...values].sort((a, b) => b[0].length - a[0].length);
    const scrub = (text: string): string => ordered.reduce((out, [value, placeholder]) => out.split(value).join(placeholder), text);
    const holds = (text: string): boolean => ordered.some(([value]) => text.includes(value));

    const backup = await this.targets.backups.take('before-forget-secret');
    // The snippet as it is now: an ordinary write, a revision of its own.
    const edit: { content?: { text: string }; name?: string; description?: string } = {};
    if (holds(texts.code)) edit.content = { text: scrub(texts.code) };
    if (texts.name !== undefined && holds(texts.name)) edit.name = scrub(texts.name);
    if (texts.description !== undefined && holds(texts.description)) edit.description = scrub(texts.description);
    if (Object.keys(edit).length > 0) this.targets.edit(assetId, edit, by);

    const database = context.database;
    database.prepare('PRAGMA secure_delete = ON').run();
    try {
      const counts = context.transaction(() => {
        // A trashed snippet that held a value comes back with its revisions: they are rewritten too.
        const owners = [assetId, ...this.trashedHolding(ordered).filter((id) => id !== assetId)];
        let revisionTexts = 0;
        let revisionNames = 0;
        for (const owner of owners) {
          const rewritten = this.rewriteRevisions(owner, holds, scrub);
          revisionTexts += rewritten.revisionTexts;
          revisionNames += rewritten.revisionNames;
        }
        return { revisionTexts, revisionNames, trashRows: this.rewriteTrash(ordered) };
      });
      return { backup: backup.name, values: values.size, ...counts };
    } finally {
      database.prepare('PRAGMA secure_delete = OFF').run();
    }
  }

  /** Every kept text and name of the asset's revisions that holds a value, rewritten under its new hash. */
  private rewriteRevisions(assetId: string, holds: (text: string) => boolean, scrub: (text: string) => string): { revisionTexts: number; revisionNames: number } {
    const database = this.targets.context.database;
    const rows = database.prepare('SELECT seq, name, content_hash, description_hash FROM revisions WHERE asset_id = ?').all(assetId) as Array<{
      seq: number;
      name: string;
      content_hash: string;
      description_hash: string | null;
    }>;
    const hashes = new Set(rows.flatMap((row) => [row.content_hash, ...(row.description_hash ? [row.description_hash] : [])]));
    let revisionTexts = 0;
    for (const hash of hashes) {
      const stored = database.prepare('SELECT encoding, data FROM revision_texts WHERE hash = ?').get(hash) as EncodedText | undefined;
      if (!stored) continue; // the current content, kept in the asset's row (already rewritten)
      const content = decodeContent(stored);
      if (content.bytes !== undefined || !holds(content.text)) continue;
      const text = scrub(content.text);
      const next = textHash(text);
      if (database.prepare('SELECT 1 FROM revision_texts WHERE hash = ?').get(next) === undefined) {
        const encoded = encodeContent({ text });
        database.prepare('INSERT INTO revision_texts (hash, encoding, data) VALUES (?, ?, ?)').run(next, encoded.encoding, encoded.data);
      }
      database.prepare('UPDATE revisions SET content_hash = ?, size = ? WHERE asset_id = ? AND content_hash = ?').run(next, Buffer.byteLength(text, 'utf8'), assetId, hash);
      database.prepare('UPDATE revisions SET description_hash = ? WHERE asset_id = ? AND description_hash = ?').run(next, assetId, hash);
      // Gone unless another snippet's revision holds the same text (texts are kept once, by hash).
      const named = database.prepare('SELECT EXISTS (SELECT 1 FROM revisions WHERE content_hash = ?1) OR EXISTS (SELECT 1 FROM revisions WHERE description_hash = ?1) AS named').get(hash) as { named: number };
      if (named.named === 0) database.prepare('DELETE FROM revision_texts WHERE hash = ?').run(hash);
      revisionTexts++;
    }
    let revisionNames = 0;
    for (const row of rows) {
      if (!holds(row.name)) continue;
      database.prepare('UPDATE revisions SET name = ? WHERE seq = ?').run(scrub(row.name), row.seq);
      revisionNames++;
    }
    return { revisionTexts, revisionNames };
  }

  /** The trashed snippets whose entry holds a value. */
  private trashedHolding(ordered: ReadonlyArray<readonly [string, string]>): string[] {
    const database = this.targets.context.database;
    const ids = new Set<string>();
    for (const [value] of ordered) {
      const json = JSON.stringify(value).slice(1, -1);
      for (const row of database.prepare("SELECT id FROM trash WHERE kind = 'asset' AND (instr(data, ?1) > 0 OR instr(name, ?2) > 0)").all(json, value) as Array<{ id: string }>) ids.add(row.id);
      for (const row of database.prepare("SELECT owner FROM trash_records WHERE instr(data, ?) > 0").all(json) as Array<{ owner: string }>) ids.add(row.owner);
    }
    return [...ids];
  }

  /** Every trash entry, record and message that holds a value (as JSON text or plain), rewritten. */
  private rewriteTrash(ordered: ReadonlyArray<readonly [string, string]>): number {
    const database = this.targets.context.database;
    let rows = 0;
    const tables: ReadonlyArray<readonly [table: string, columns: readonly string[]]> = [
      ['trash', ['name', 'preview', 'data']],
      ['trash_records', ['data']],
      ['trash_messages', ['data', 'head']],
    ];
    for (const [value, placeholder] of ordered) {
      // In a JSON document the value is stored escaped; in a plain column as it is.
      const jsonValue = JSON.stringify(value).slice(1, -1);
      const jsonPlaceholder = JSON.stringify(placeholder).slice(1, -1);
      for (const [table, columns] of tables) {
        for (const column of columns) {
          const json = column === 'data';
          const [from, to] = json ? [jsonValue, jsonPlaceholder] : [value, placeholder];
          rows += Number(database.prepare(`UPDATE ${table} SET ${column} = replace(${column}, ?1, ?2) WHERE instr(${column}, ?1) > 0`).run(from, to).changes);
        }
      }
    }
    return rows;
  }
}
