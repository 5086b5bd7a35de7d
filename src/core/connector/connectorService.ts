import type { StoreContext } from '../context.ts';
import type { AssetService } from '../assets/assetService.ts';
import type { ApplicationService, Engagement } from '../applications/applicationService.ts';
import type {
  Application,
  Asset,
  Context,
  Reaction,
  Seed,
  SeededConnectorAsset,
  SeededConnectorConnection,
  SeededConnectorCreation,
  SeededConnectorTracking,
  IdentifierDescriptionPairs,
  Suggestion,
} from '../piecesTypes.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { authorOf, type Author } from '../history/authors.ts';
import { contentOf } from '../assets/content.ts';
import type { FingerprintIndex, IndexMatch } from './fingerprintIndex.ts';
import { normalizedKey } from './fingerprint.ts';
import { copyFacts } from './copyFacts.ts';
import type { DoorSecrets } from '../secrets/doorSecrets.ts';
import { decide, type Decision, type DecisionSettings, type QuietReason } from './decision.ts';
import { defaultQuietingSettings, quietingFor, type Quieting, type ReactionRecord, type SuggestionKind } from './quieting.ts';

export type ConnectorSettings = DecisionSettings;

export const defaultConnectorSettings: ConnectorSettings = {
  ...defaultQuietingSettings,
  minLength: 12,
  minFingerprints: 4,
  reuseThreshold: 0.5,
  saveMinLines: 2,
  saveMinBlockTokens: 10,
  saveMinTokens: 24,
  repeatWindowMs: 30 * 60 * 1000,
  maxReuseAssets: 5,
};

/** A Suggestion plus why it is what it is (extra keys the client ignores). */
export type ConnectorSuggestion = Suggestion & { reason?: QuietReason };

/** The string `react`, `track` and `onboarded` answer when there is no id to return. */
export const ACKNOWLEDGED = 'OK';

/** Copies remembered per application (enough for the repeat rule and for reactions to find their suggestion). */
const COPIES_KEPT = 200;

/** Who a connector's save is by: the connector, on behalf of the application that called it. */
function connectorAuthor(application: Application): Author {
  return authorOf('connector', application.name);
}

/** connect, suggest, react, intention, track, onboarded. */
export class ConnectorService {
  private readonly context: StoreContext;
  /** The secrets detector (issue 32): a copy holding a value is never suggested for saving. */
  private readonly secrets: () => DoorSecrets | undefined;
  private readonly assets: AssetService;
  private readonly applications: ApplicationService;
  readonly settings: ConnectorSettings;
  /** The near-duplicate index; the composition root hands it to the assets area, which keeps it in step with every write. */
  readonly index: FingerprintIndex;

  constructor(
    context: StoreContext,
    assets: AssetService,
    applications: ApplicationService,
    index: FingerprintIndex,
    settings: Partial<ConnectorSettings>,
    secrets: () => DoorSecrets | undefined = () => undefined,
  ) {
    this.secrets = secrets;
    this.context = context;
    this.assets = assets;
    this.applications = applications;
    this.settings = { ...defaultConnectorSettings, ...settings };
    this.index = index;
  }

  /** Registers (or finds) the application and describes this Satchel to it. */
  connect(connection: SeededConnectorConnection, version: string): Context {
    const application = this.applications.connect(connection.application);
    const os = this.applications.osId();
    return { os, application, health: { os: { id: os, version } } };
  }

  /**
   * `suggest` with the copy scanned for secrets first (issue 32): code holding a credential is never
   * suggested for a quiet save (`save.suggested` false, reason `holds_secret`); the user may still save
   * it by hand, and the save flags it.
   */
  async suggestGuarded(applicationId: string, creation: SeededConnectorCreation, now = Date.now()): Promise<ConnectorSuggestion> {
    const secrets = this.secrets();
    this.applications.get(applicationId);
    const holdsSecret = secrets !== undefined && (await secrets.findingsIn({ code: this.textOf(creation.asset), name: '' })).length > 0;
    return this.suggest(applicationId, creation, now, holdsSecret);
  }

  /** Compares a copied snippet with saved ones and decides between reuse, save and silence (`holdsSecret`: never save). */
  suggest(applicationId: string, creation: SeededConnectorCreation, now = Date.now(), holdsSecret = false): ConnectorSuggestion {
    const application = this.applications.get(applicationId);
    const text = this.textOf(creation.asset);
    const { key, prints, shape } = copyFacts(text);
    const decision = decide(
      {
        text,
        key,
        fingerprintCount: prints.length,
        shape,
        matches: this.index.query(prints, { minScore: this.settings.reuseThreshold, limit: this.settings.maxReuseAssets * 2 }),
        lastCopy: this.lastCopy(application.id),
        quieting: { reuse: this.quieting(application.id, 'reuse', now), save: this.quieting(application.id, 'save', now) },
        now,
        holdsSecret,
      },
      this.settings,
    );
    // The reply is a decision, not a saved write: what it remembers need not hold the reply for an fsync.
    this.context.unsyncedTransaction(() => {
      if (decision.kind !== 'none' || decision.reason !== 'repeat') this.rememberCopy(application.id, key, decision, now);
      const figures: Partial<Engagement> = { suggestions: 1 };
      if (decision.kind === 'reuse') figures.reuseSuggestions = 1;
      if (decision.kind === 'save') figures.saveSuggestions = 1;
      this.applications.bump(application.id, figures);
    });
    return this.render(creation, decision);
  }

  /**
   * The user's answer to a suggestion: a save creates the asset (its id is the reply), a reuse
   * counts on the reused asset, anything else is a dismissal that quiets later suggestions of the
   * kind that was offered.
   */
  async react(applicationId: string, reaction: Reaction, now = Date.now()): Promise<string> {
    const application = this.applications.get(applicationId);
    const seedText = reaction.seed.asset ? this.textOf(reaction.seed.asset) : undefined;
    if (reaction.save) {
      if (!reaction.seed.asset) throw new InvalidInputError('A save reaction needs seed.asset with the snippet to save');
      const asset = await this.assets.writes.create(this.seedFor(reaction.seed.asset, application), { author: connectorAuthor(application) });
      this.context.transaction(() => {
        this.rememberReaction(application.id, 'save', 'accepted', asset.id, now);
        this.applications.bump(application.id, { saves: 1 });
      });
      return asset.id;
    }
    if (reaction.reuse) {
      const assetId = reaction.reuse.asset;
      if (!this.assets.exists(assetId)) throw new NotFoundError('asset', assetId);
      this.context.transaction(() => {
        this.assets.writes.incrementScores(assetId, { asset: { reuse: true } });
        this.assets.writes.recordActivity(
          assetId,
          { asset: { asset: { id: assetId }, identifier_description_pair: { suggested_asset_referenced: 'a_suggested_asset_was_referenced' } } },
          application,
        );
        this.rememberReaction(application.id, 'reuse', 'accepted', assetId, now);
        this.applications.bump(application.id, { reuses: 1 });
      });
      return ACKNOWLEDGED;
    }
    this.context.transaction(() => {
      this.rememberReaction(application.id, this.offeredKind(application.id, seedText), 'dismissed', null, now);
      this.applications.bump(application.id, { dismissals: 1 });
    });
    return ACKNOWLEDGED;
  }

  /** Keeps a snippet for later comparison: a suggested asset (GET /assets?suggested=true). Returns its id. */
  async intention(applicationId: string, seeded: SeededConnectorAsset): Promise<string> {
    const application = this.applications.get(applicationId);
    this.textOf(seeded);
    const asset = await this.assets.writes.create(this.seedFor(seeded, application), { suggested: true, author: connectorAuthor(application) });
    this.applications.bump(application.id, { intentions: 1 });
    return asset.id;
  }

  /** Records tracked events against the assets (or formats' assets) they name. */
  track(applicationId: string, tracking: SeededConnectorTracking): string {
    const application = this.applications.get(applicationId);
    const events = trackedEvents(tracking);
    this.context.transaction(() => {
      const figures: Partial<Engagement> = { tracked: 1 };
      for (const event of events.assets) {
        const assetId = event.id ?? (event.formatId !== undefined ? this.assetOfFormat(event.formatId) : undefined);
        if (assetId === undefined || !this.assets.exists(assetId)) {
          throw new NotFoundError(event.id !== undefined ? 'asset' : 'format', event.id ?? event.formatId ?? '');
        }
        if (event.score) this.assets.writes.incrementScores(assetId, { asset: { [event.score]: true } });
        this.assets.writes.recordActivity(assetId, tracking, application);
        for (const metric of event.metrics) figures[metric] = (figures[metric] ?? 0) + 1;
      }
      if (tracking.interaction) figures.interactions = 1;
      if (tracking.keyboard) figures.keyboard = 1;
      this.applications.bump(application.id, figures);
    });
    return ACKNOWLEDGED;
  }

  onboarded(applicationId: string, onboarded: boolean): string {
    this.applications.setOnboarded(applicationId, onboarded);
    return ACKNOWLEDGED;
  }

  /** The quieting currently applied to one kind of suggestion for an application. */
  quieting(applicationId: string, kind: SuggestionKind, now = Date.now()): Quieting {
    const rows = this.context.database
      .prepare('SELECT outcome, created FROM connector_reactions WHERE application_id = ? AND kind = ? ORDER BY id DESC LIMIT 64')
      .all(applicationId, kind) as Array<{ outcome: ReactionRecord['outcome']; created: number }>;
    return quietingFor(
      rows.map((row) => ({ outcome: row.outcome, at: row.created })),
      now,
      this.settings,
    );
  }

  // ------------------------------------------------------------ internals

  private textOf(seeded: SeededConnectorAsset | undefined): string {
    if (!seeded?.format) throw new InvalidInputError('The snippet is missing: send asset.format with a fragment');
    const content = contentOf(seeded.format);
    if (!content) throw new InvalidInputError('The snippet has no content: send asset.format.fragment.string.raw');
    return content.text;
  }

  private seedFor(seeded: SeededConnectorAsset, application: Application): Seed {
    return {
      type: 'SEEDED_ASSET',
      asset: { application, format: seeded.format, ...(seeded.metadata ? { metadata: seeded.metadata } : {}) },
    };
  }

  private lastCopy(applicationId: string): { key: string; at: number } | undefined {
    const row = this.context.database
      .prepare('SELECT key, created FROM connector_copies WHERE application_id = ? ORDER BY id DESC LIMIT 1')
      .get(applicationId) as { key: string; created: number } | undefined;
    return row ? { key: row.key, at: row.created } : undefined;
  }

  private rememberCopy(applicationId: string, key: string, decision: Decision, now: number): void {
    const db = this.context.database;
    db.prepare('INSERT INTO connector_copies (application_id, key, kind, reason, score, created) VALUES (?, ?, ?, ?, ?, ?)').run(
      applicationId,
      key,
      decision.kind,
      decision.kind === 'none' ? decision.reason : '',
      decision.matches[0]?.score ?? 0,
      now,
    );
    db.prepare(
      `DELETE FROM connector_copies WHERE application_id = ? AND id <= (
         SELECT id FROM connector_copies WHERE application_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ).run(applicationId, applicationId, COPIES_KEPT);
  }

  /** The kind of suggestion a dismissal answers: the one offered for that snippet, else the last one offered. */
  private offeredKind(applicationId: string, seedText: string | undefined): SuggestionKind | 'unknown' {
    const db = this.context.database;
    const offered = (key?: string): { kind: SuggestionKind } | undefined =>
      (key === undefined
        ? db.prepare("SELECT kind FROM connector_copies WHERE application_id = ? AND kind != 'none' ORDER BY id DESC LIMIT 1").get(applicationId)
        : db
            .prepare("SELECT kind FROM connector_copies WHERE application_id = ? AND key = ? AND kind != 'none' ORDER BY id DESC LIMIT 1")
            .get(applicationId, key)) as { kind: SuggestionKind } | undefined;
    return (seedText !== undefined ? offered(normalizedKey(seedText)) : undefined)?.kind ?? offered()?.kind ?? 'unknown';
  }

  private rememberReaction(applicationId: string, kind: SuggestionKind | 'unknown', outcome: 'accepted' | 'dismissed', assetId: string | null, now: number): void {
    this.context.database
      .prepare('INSERT INTO connector_reactions (application_id, kind, outcome, asset_id, created) VALUES (?, ?, ?, ?, ?)')
      .run(applicationId, kind, outcome, assetId, now);
  }

  private assetOfFormat(formatId: string): string | undefined {
    try {
      return this.assets.format(formatId, false).asset.id;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  private render(creation: SeededConnectorCreation, decision: Decision): ConnectorSuggestion {
    const reused: Asset[] = decision.kind === 'reuse' ? decision.matches.flatMap((match) => this.assetOrNothing(match)) : [];
    const distribution: Record<string, number> = {};
    for (const match of decision.kind === 'reuse' ? decision.matches : []) distribution[match.assetId] = round(match.score);
    return {
      reuse: { suggested: decision.kind === 'reuse', assets: { iterable: reused } },
      save: { suggested: decision.kind === 'save' },
      target: { seed: creation, vector: round(decision.matches[0]?.score ?? 0) },
      assets: { iterable: reused },
      distribution,
      ...(decision.kind === 'none' ? { reason: decision.reason } : {}),
    };
  }

  private assetOrNothing(match: IndexMatch): Asset[] {
    try {
      return [this.assets.get(match.assetId, { transferables: true })];
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }
}

interface TrackedAssetEvent {
  readonly id?: string;
  readonly formatId?: string;
  readonly score?: 'reuse' | 'reference' | 'update';
  readonly metrics: ReadonlyArray<'copies' | 'inserts' | 'references' | 'views'>;
}

/** Which records a tracking body names and what each event counts as. */
export function trackedEvents(tracking: SeededConnectorTracking): { assets: TrackedAssetEvent[] } {
  const assets: TrackedAssetEvent[] = [];
  if (tracking.asset?.asset?.id !== undefined) {
    const pairs = tracking.asset.identifier_description_pair ?? {};
    const metrics: Array<'copies' | 'inserts' | 'references' | 'views'> = [];
    let score: TrackedAssetEvent['score'];
    if (set(pairs, 'asset_format_copied')) {
      metrics.push('copies');
      score = 'reuse';
    }
    if (['asset_referenced', 'suggested_asset_referenced', 'searched_asset_referenced', 'activity_asset_referenced'].some((k) => set(pairs, k))) {
      metrics.push('references');
      score = 'reference';
    }
    if (set(pairs, 'asset_viewed')) metrics.push('views');
    if (['asset_updated', 'asset_format_value_edited', 'asset_format_updated', 'asset_name_updated', 'asset_description_updated'].some((k) => set(pairs, k))) {
      score ??= 'update';
    }
    assets.push({ id: tracking.asset.asset.id, ...(score ? { score } : {}), metrics });
  }
  if (tracking.format?.format?.id !== undefined) {
    const pairs = tracking.format.identifier_description_pair ?? {};
    const metrics: Array<'copies' | 'inserts' | 'references' | 'views'> = [];
    let score: TrackedAssetEvent['score'];
    if (set(pairs, 'format_copied') || set(pairs, 'format_partially_copied')) {
      metrics.push('copies');
      score = 'reuse';
    }
    if (set(pairs, 'format_inserted')) {
      metrics.push('inserts');
      score = 'reuse';
    }
    if (set(pairs, 'format_updated') || set(pairs, 'format_value_edited')) score ??= 'update';
    const fromReference = tracking.format.format.reference?.asset;
    assets.push({
      ...(fromReference !== undefined ? { id: fromReference } : { formatId: tracking.format.format.id }),
      ...(score ? { score } : {}),
      metrics,
    });
  }
  return { assets };
}

function set(pairs: IdentifierDescriptionPairs, key: string): boolean {
  const value = pairs[key];
  return typeof value === 'string' && value !== 'UNKNOWN';
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
