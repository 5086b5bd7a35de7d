/**
 * The sync's door for secrets (issue 32): what the plan reads of a snippet, and so every commit the sync
 * writes and pushes, has each value the detector finds replaced by its placeholder, unless the user chose
 * to sync that snippet with its values. Findings are asked for the exact texts being read (scanned now
 * when none is recorded for them), so a value added since the last sync is caught before the next push.
 *
 * What comes back is the redacted form, merged three ways like any record; before it is written here each
 * placeholder takes back this machine's value (restoreTexts), so the store never gets a placeholder where
 * it had a value. A conflict copy (a new record holding this machine's version) takes its values from the
 * snippet it is a copy of.
 */
import type { DoorSecrets, ScanBeforeSending, SecretsSent, SecretTexts } from '../secrets/doorSecrets.ts';
import { hiddenWebsites, holdsPlaceholder, redactTexts, restoreTexts } from '../secrets/doorSecrets.ts';
import type { SecretFinding } from '../secrets/findings.ts';
import type { SyncedKind } from './syncTargets.ts';
import type { VaultAsset, VaultWebsite } from './vaultFormat.ts';


/** The texts of a record a value can sit in (binary content has none to scan). */
export function textsOfRecord(record: VaultAsset): SecretTexts {
  return { code: typeof record.content === 'string' ? record.content : '', name: record.name, ...(record.description !== undefined ? { description: record.description } : {}) };
}

function withTexts(record: VaultAsset, texts: SecretTexts): VaultAsset {
  return {
    ...record,
    name: texts.name,
    ...(record.description !== undefined ? { description: texts.description } : {}),
    ...(typeof record.content === 'string' ? { content: texts.code } : {}),
  };
}

/** A record with every value the findings name replaced by its placeholder. */
export function redactRecord(record: VaultAsset, findings: readonly SecretFinding[]): { record: VaultAsset; redacted: boolean } {
  const { texts, redacted } = redactTexts(textsOfRecord(record), findings);
  return { record: redacted ? withTexts(record, texts) : record, redacted };
}

function holdsAnyPlaceholder(record: VaultAsset): boolean {
  const texts = textsOfRecord(record);
  return holdsPlaceholder(texts.code) || holdsPlaceholder(texts.name) || holdsPlaceholder(texts.description ?? '') || record.websites.some((site) => holdsPlaceholder(site.url) || holdsPlaceholder(site.name));
}

/** This machine's texts of a snippet and their findings, and its websites as they were sent, as the sync read them. */
interface Held {
  readonly texts: SecretTexts;
  readonly findings: readonly SecretFinding[];
  /** The websites here and as sent, one for one, when a value in one was hidden. */
  readonly websites?: { readonly here: readonly VaultWebsite[]; readonly sent: readonly VaultWebsite[] } | undefined;
}

/**
 * The snippets' kind of one sync with the secrets door around it. `readSent` is what the plan reads
 * (redacted); `read` is what the apply compares with what it merged, and is redacted with what is known
 * without scanning (a record it cannot tell is taken as changed here, merged again at the next sync).
 */
export class GuardedAssets implements SyncedKind<VaultAsset> {
  private readonly inner: SyncedKind<VaultAsset>;
  private readonly secrets: DoorSecrets;
  /** The local texts of each snippet read with a value in it (restored from when a version comes back). */
  private readonly held = new Map<string, Held>();
  private readonly redactedIds = new Set<string>();
  private readonly withSecretIds = new Map<string, string>();

  constructor(inner: SyncedKind<VaultAsset>, secrets: DoorSecrets) {
    this.inner = inner;
    this.secrets = secrets;
  }

  get kind(): SyncedKind<VaultAsset>['kind'] {
    return this.inner.kind;
  }

  allIds(): Iterable<readonly string[]> {
    return this.inner.allIds();
  }

  count(): number {
    return this.inner.count();
  }

  refusal(record: VaultAsset): string | undefined {
    return this.inner.refusal(record);
  }

  remove(id: string): void {
    this.inner.remove(id);
  }

  /** Snippets not scanned since their last write, scanned in batches before the plan reads them (each read then answers from what is recorded). */
  async beforeReading(options: ScanBeforeSending): Promise<void> {
    await this.secrets.scanBeforeSending?.(options);
  }

  /** The snippet as it may leave this machine. */
  async readSent(id: string): Promise<VaultAsset | undefined> {
    const record = this.inner.read(id);
    if (record === undefined) return undefined;
    if (this.secrets.syncsWithSecrets(id)) {
      this.withSecretIds.set(id, record.name);
      return record;
    }
    const held = await this.heldOf(record);
    if (held === undefined) return record;
    this.held.set(id, held);
    const redacted = sentOf(record, held);
    if (redacted !== record) this.redactedIds.add(id);
    return redacted;
  }

  /** What a door must hide of a snippet here (its texts' findings, its websites as sent), or undefined when nothing. */
  private async heldOf(record: VaultAsset): Promise<Held | undefined> {
    const texts = textsOfRecord(record);
    const findings = await this.secrets.findingsIn(texts, record.id);
    const sent = await hiddenWebsites(record.websites, this.secrets);
    const websites = sent === record.websites ? undefined : { here: record.websites, sent };
    return findings.length === 0 && websites === undefined ? undefined : { texts, findings, websites };
  }

  read(id: string): VaultAsset | undefined {
    const record = this.inner.read(id);
    if (record === undefined || this.secrets.syncsWithSecrets(id)) return record;
    const texts = textsOfRecord(record);
    const held = this.held.get(id);
    if (held !== undefined && sameTexts(held.texts, texts) && sameWebsites(held.websites?.here ?? record.websites, record.websites)) return sentOf(record, held);
    // Not read by this sync's plan: the texts as far as their findings are known without scanning; a
    // website holding a value cannot be told without a scan, so such a record reads as changed here
    // and is merged again at the next sync (which reads it).
    const findings = this.secrets.knownFindings?.(texts, id);
    return findings === undefined ? record : redactRecord(record, findings).record;
  }

  /** Before the apply writes: the local texts of records that come back holding placeholders and were not read by this sync's plan (a sync finished after a crash). */
  async prepare(records: ReadonlyMap<string, VaultAsset>): Promise<void> {
    for (const record of records.values()) {
      if (!holdsAnyPlaceholder(record)) continue;
      for (const id of [record.id, record.conflictOf]) {
        if (id === undefined || this.held.has(id)) continue;
        const local = this.inner.read(id);
        if (local === undefined) continue;
        const held = await this.heldOf(local);
        if (held !== undefined) this.held.set(id, held);
      }
    }
  }

  put(records: readonly VaultAsset[]): void {
    this.inner.put(records.map((record) => this.restored(record)));
  }

  /** A record come back, with this machine's values where their placeholders are. */
  private restored(record: VaultAsset): VaultAsset {
    if (!holdsAnyPlaceholder(record)) return record;
    const held = this.held.get(record.id) ?? (record.conflictOf !== undefined ? this.held.get(record.conflictOf) : undefined);
    if (held === undefined) return record;
    const restored = held.findings.length === 0 ? record : withTexts(record, restoreTexts(textsOfRecord(record), held.texts, held.findings));
    const websites = held.websites;
    if (websites === undefined) return restored;
    // A website that came back as it was sent is this machine's again: every one sent so (two URLs that
    // differ only in a token are sent alike, and both come back).
    const back = new Map<string, VaultWebsite>();
    for (const site of restored.websites) {
      const here = websites.here.filter((_, i) => websites.sent[i]!.url === site.url && websites.sent[i]!.name === site.name);
      for (const kept of here.length > 0 ? here : [site]) if (!back.has(kept.url)) back.set(kept.url, kept);
    }
    return { ...restored, websites: [...back.values()] };
  }

  /** Of the records sent, those that went redacted and those that went with their values. */
  sentSecrets(sent: Iterable<string>): SecretsSent {
    let redacted = 0;
    const withSecrets: Array<{ id: string; name: string }> = [];
    for (const id of sent) {
      if (this.redactedIds.has(id)) redacted++;
      const name = this.withSecretIds.get(id);
      if (name !== undefined) withSecrets.push({ id, name });
    }
    return { redacted, withSecrets };
  }
}

function sameTexts(a: SecretTexts, b: SecretTexts): boolean {
  return a.code === b.code && a.name === b.name && (a.description ?? '') === (b.description ?? '');
}

/** The snippet as it leaves: its texts' values and its websites' hidden. */
function sentOf(record: VaultAsset, held: Held): VaultAsset {
  const redacted = held.findings.length === 0 ? record : redactRecord(record, held.findings).record;
  return held.websites === undefined ? redacted : { ...redacted, websites: held.websites.sent };
}

function sameWebsites(a: readonly VaultWebsite[], b: readonly VaultWebsite[]): boolean {
  return a.length === b.length && a.every((site, i) => site.url === b[i]!.url && site.name === b[i]!.name);
}
