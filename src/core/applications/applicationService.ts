import { randomUUID } from 'node:crypto';
import { hostname, platform as osPlatform, release } from 'node:os';
import type { StoreContext } from '../context.ts';
import type { Application, Applications, DetectedExternalApplications, SeededConnectorConnection, Session } from '../piecesTypes.ts';
import { NotFoundError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import { detectInstalled, knownIntegrations, systemProbe, type Probe } from './externalApplications.ts';

export type SeededTrackedApplication = SeededConnectorConnection['application'];

/** What a deprecated tracking event may say of an application; old clients leave any of it out. */
export interface TrackedIdentity {
  readonly name?: string;
  readonly version?: string;
  readonly platform?: string;
}

/** Counters kept per application; the connector's operations and the tracking calls move them. */
export const ENGAGEMENT_METRICS = [
  'connections',
  'suggestions',
  'reuseSuggestions',
  'saveSuggestions',
  'reuses',
  'saves',
  'dismissals',
  'intentions',
  'tracked',
  'copies',
  'inserts',
  'references',
  'views',
  'interactions',
  'keyboard',
  'sessions',
  'installations',
  'updates',
] as const;

export type EngagementMetric = (typeof ENGAGEMENT_METRICS)[number];
export type Engagement = Record<EngagementMetric, number>;

/** An Application as the snapshots show it: the wire record plus its status and engagement figures. */
export type ApplicationSnapshot = Application & {
  status: 'ACTIVE' | 'INACTIVE';
  lastSeen?: { value: string; readable?: string };
  engagement: Engagement;
};

/** What a usage event (a deprecated tracking operation) was. */
export type UsageKind = 'interaction' | 'keyboard' | 'installation' | 'update';

export interface StoredUsageEvent {
  readonly id: string;
  readonly created: { value: string; readable?: string };
  readonly [key: string]: unknown;
}

/** An application seen within this long is ACTIVE. */
const ACTIVE_MS = 30 * 60 * 1000;

const OS_ID_KEY = 'applications.os_id';

/** Applications that connected, their sessions, engagement figures and usage events. */
export class ApplicationService {
  private readonly context: StoreContext;
  private readonly probe: Probe;
  private detected?: { at: number; value: DetectedExternalApplications };

  constructor(context: StoreContext, probe: Probe = systemProbe()) {
    this.context = context;
    this.probe = probe;
  }

  // ------------------------------------------------------------ identity

  /** The stable id of this Satchel installation (its data directory), reported as the OS id. */
  osId(): string {
    const db = this.context.database;
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(OS_ID_KEY) as { value: string } | undefined;
    if (row) return row.value;
    const id = randomUUID();
    db.transaction(() => db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(OS_ID_KEY, id));
    return (db.prepare('SELECT value FROM meta WHERE key = ?').get(OS_ID_KEY) as { value: string }).value;
  }

  /** Facts about the machine the connector reports with a Context. */
  osFacts(): { platform: string; release: string; hostname: string } {
    return { platform: osPlatform(), release: release(), hostname: hostname() };
  }

  // ------------------------------------------------------------ reads

  exists(id: string): boolean {
    return this.context.database.prepare('SELECT 1 FROM applications WHERE id = ?').get(id) !== undefined;
  }

  /** The wire Application (no figures); NotFoundError when unknown. */
  get(id: string): Application {
    const row = this.context.database.prepare('SELECT data FROM applications WHERE id = ?').get(id) as { data: string } | undefined;
    if (!row) throw new NotFoundError('application', id);
    return JSON.parse(row.data) as Application;
  }

  snapshot(): Applications & { iterable: ApplicationSnapshot[] } {
    const rows = this.context.database.prepare('SELECT id FROM applications ORDER BY created, rowid').all() as Array<{ id: string }>;
    return { iterable: rows.map((row) => this.specific(row.id)) };
  }

  specific(id: string, now = Date.now()): ApplicationSnapshot {
    const application = this.get(id);
    const row = this.context.database.prepare('SELECT last_seen FROM applications WHERE id = ?').get(id) as { last_seen: string | null };
    const lastSeen = row.last_seen ? Date.parse(row.last_seen) : undefined;
    return {
      ...application,
      status: lastSeen !== undefined && now - lastSeen <= ACTIVE_MS ? 'ACTIVE' : 'INACTIVE',
      ...(lastSeen !== undefined ? { lastSeen: stamp(new Date(lastSeen)) } : {}),
      engagement: this.engagement(id),
    };
  }

  identifiers(): string[] {
    const rows = this.context.database.prepare('SELECT id FROM applications ORDER BY created, rowid').all() as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  engagement(id: string): Engagement {
    const figures = Object.fromEntries(ENGAGEMENT_METRICS.map((metric) => [metric, 0])) as Engagement;
    const rows = this.context.database
      .prepare('SELECT metric, value FROM application_engagement WHERE application_id = ?')
      .all(id) as Array<{ metric: EngagementMetric; value: number }>;
    for (const row of rows) if (row.metric in figures) figures[row.metric] = row.value;
    return figures;
  }

  // ------------------------------------------------------------ writes

  /** Finds the application by name, version and platform, or registers it; counts the connection. */
  connect(seeded: SeededTrackedApplication): Application {
    return this.context.transaction(() => {
      const found = this.findByIdentity(seeded.name, seeded.version, seeded.platform);
      const application = found ?? this.insert(this.fromSeed(seeded, newId()));
      this.bump(application.id, { connections: 1 });
      return application;
    });
  }

  /** The deprecated register: an application with an id is stored under it; one without is found or made. */
  register(input: Partial<Application> & SeededTrackedApplication): Application {
    return this.context.transaction(() => {
      if (input.id !== undefined && this.exists(input.id)) return this.update({ ...this.get(input.id), ...input, id: input.id });
      const found = input.id === undefined ? this.findByIdentity(input.name, input.version, input.platform) : undefined;
      if (found) return found;
      return this.insert({ ...this.fromSeed(input, input.id ?? newId()), ...withoutUndefined(input) } as Application);
    });
  }

  /** Replaces the fields `input` gives of a known application. */
  update(input: Partial<Application> & Pick<Application, 'id'>): Application {
    return this.context.transaction(() => {
      const current = this.get(input.id);
      const next: Application = { ...current, ...withoutUndefined(input) };
      this.write(next);
      return next;
    });
  }

  setOnboarded(id: string, onboarded: boolean): Application {
    return this.context.transaction(() => {
      const next = { ...this.get(id), onboarded };
      this.write(next);
      this.touch(id);
      return next;
    });
  }

  /** Adds to engagement figures and marks the application as seen now. */
  bump(id: string, increments: Partial<Engagement>): void {
    this.context.transaction(() => {
      if (!this.exists(id)) throw new NotFoundError('application', id);
      const statement = this.context.database.prepare(
        `INSERT INTO application_engagement (application_id, metric, value) VALUES (?, ?, ?)
         ON CONFLICT (application_id, metric) DO UPDATE SET value = value + excluded.value`,
      );
      for (const [metric, value] of Object.entries(increments)) if (value) statement.run(id, metric, value);
      this.touch(id);
    });
  }

  // ------------------------------------------------------------ sessions (deprecated operations)

  openSession(applicationId?: string): Session {
    return this.context.transaction(() => {
      const attributed = applicationId !== undefined && this.exists(applicationId) ? applicationId : null;
      const opened = stamp();
      const id = newId();
      this.context.database
        .prepare('INSERT INTO application_sessions (id, application_id, opened) VALUES (?, ?, ?)')
        .run(id, attributed, opened.value);
      if (attributed) this.bump(attributed, { sessions: 1 });
      this.context.publish({ kind: 'session', id });
      return this.session(id);
    });
  }

  /** Closes `id`, or the most recently opened session still open when no id is given. */
  closeSession(id?: string): Session {
    return this.context.transaction(() => {
      const target =
        id ??
        (
          this.context.database
            .prepare('SELECT id FROM application_sessions WHERE closed IS NULL ORDER BY opened DESC, rowid DESC LIMIT 1')
            .get() as { id: string } | undefined
        )?.id;
      if (target === undefined) throw new NotFoundError('open session', '(any)');
      const current = this.session(target);
      if (current.closed === undefined) {
        this.context.database.prepare('UPDATE application_sessions SET closed = ? WHERE id = ?').run(stamp().value, target);
        this.context.publish({ kind: 'session', id: target });
      }
      return this.session(target);
    });
  }

  /** A session with the usage recorded while it was open. */
  session(id: string): Session & { application?: string; usage: { interactions: number; keyboard: number } } {
    const row = this.context.database
      .prepare('SELECT id, application_id, opened, closed FROM application_sessions WHERE id = ?')
      .get(id) as { id: string; application_id: string | null; opened: string; closed: string | null } | undefined;
    if (!row) throw new NotFoundError('session', id);
    const count = (kind: UsageKind): number =>
      (
        this.context.database
          .prepare('SELECT COUNT(*) AS n FROM application_usage_events WHERE kind = ? AND created >= ? AND created <= ?')
          .get(kind, row.opened, row.closed ?? '9999') as { n: number }
      ).n;
    return {
      id: row.id,
      opened: stamp(new Date(row.opened)),
      ...(row.closed ? { closed: stamp(new Date(row.closed)) } : {}),
      ...(row.application_id ? { application: row.application_id } : {}),
      usage: { interactions: count('interaction'), keyboard: count('keyboard') },
    };
  }

  // ------------------------------------------------------------ usage events (deprecated operations)

  /** Stores a usage event, attributed to `applicationId` when that application is known. */
  recordUsage(kind: UsageKind, event: Record<string, unknown>, applicationId?: string): StoredUsageEvent {
    return this.context.transaction(() => {
      const attributed = applicationId !== undefined && this.exists(applicationId) ? applicationId : undefined;
      const stored: StoredUsageEvent = { ...event, id: newId(), created: stamp() };
      this.context.database
        .prepare('INSERT INTO application_usage_events (id, kind, application_id, data, created) VALUES (?, ?, ?, ?, ?)')
        .run(stored.id, kind, attributed ?? null, JSON.stringify(stored), stored.created.value);
      const metric: EngagementMetric =
        kind === 'interaction' ? 'interactions' : kind === 'keyboard' ? 'keyboard' : kind === 'installation' ? 'installations' : 'updates';
      if (attributed) this.bump(attributed, { [metric]: 1 });
      return stored;
    });
  }

  /** Usage events of a kind, oldest first. */
  usage(kind: UsageKind): StoredUsageEvent[] {
    const rows = this.context.database
      .prepare('SELECT data FROM application_usage_events WHERE kind = ? ORDER BY created, rowid')
      .all(kind) as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as StoredUsageEvent);
  }

  /**
   * An installation of a known application (by name, version, platform) counts on it. Old clients
   * send partial events: any object is recorded, and counts on an application only when it names one.
   */
  recordInstallation(event: { application?: TrackedIdentity } & Record<string, unknown>): void {
    this.recordUsage('installation', event, this.identified(event.application)?.id);
  }

  /** An update moves a known application from its previous version to the current one. */
  recordUpdate(event: { previous?: TrackedIdentity; current?: TrackedIdentity } & Record<string, unknown>): void {
    this.context.transaction(() => {
      const found = this.identified(event.previous);
      const current = event.current;
      if (found && current?.version && current.name === found.name && current.platform === found.platform) {
        this.update({ ...found, version: current.version });
      }
      this.recordUsage('update', event, found?.id);
    });
  }

  private identified(application: TrackedIdentity | undefined): Application | undefined {
    const { name, version, platform } = application ?? {};
    return name && version && platform ? this.findByIdentity(name, version, platform) : undefined;
  }

  // ------------------------------------------------------------ external applications

  /** Editors and tools installed on this machine (cached for a minute: it walks the file system). */
  external(now = Date.now()): DetectedExternalApplications {
    if (!this.detected || now - this.detected.at > 60_000) {
      this.detected = { at: now, value: { iterable: detectInstalled(this.probe).map(({ name, version }) => (version ? { name, version } : { name })) } };
    }
    return this.detected.value;
  }

  /** Every integration Satchel knows of, with the installed version where one was found. */
  related(now = Date.now()): DetectedExternalApplications {
    const installed = new Map(this.external(now).iterable.map((app) => [app.name, app]));
    return {
      iterable: knownIntegrations.map(({ name }) => installed.get(name) ?? { name }),
    };
  }

  // ------------------------------------------------------------ internals

  private findByIdentity(name: string, version: string, platform: string): Application | undefined {
    const row = this.context.database
      .prepare('SELECT data FROM applications WHERE name = ? AND version = ? AND platform = ? ORDER BY created, rowid LIMIT 1')
      .get(name, version, platform) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Application) : undefined;
  }

  private fromSeed(seeded: SeededTrackedApplication, id: string): Application {
    const application: Application = {
      id,
      name: seeded.name,
      version: seeded.version,
      platform: seeded.platform,
      onboarded: false,
      privacy: seeded.privacy ?? 'OPEN',
    };
    if (seeded.capabilities !== undefined) application.capabilities = seeded.capabilities;
    if (seeded.automaticUnload !== undefined) application.automaticUnload = seeded.automaticUnload;
    if (seeded.enrichment !== undefined) application.enrichment = seeded.enrichment;
    return application;
  }

  private insert(application: Application): Application {
    const now = new Date().toISOString();
    this.context.database
      .prepare('INSERT INTO applications (id, name, version, platform, data, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(application.id, application.name, application.version, application.platform, JSON.stringify(application), now, now);
    this.context.publish({ kind: 'application', id: application.id });
    return application;
  }

  private write(application: Application): void {
    this.context.database
      .prepare('UPDATE applications SET name = ?, version = ?, platform = ?, data = ?, updated = ? WHERE id = ?')
      .run(application.name, application.version, application.platform, JSON.stringify(application), new Date().toISOString(), application.id);
    this.context.publish({ kind: 'application', id: application.id });
  }

  private touch(id: string): void {
    this.context.database.prepare('UPDATE applications SET last_seen = ? WHERE id = ?').run(new Date().toISOString(), id);
    this.context.publish({ kind: 'application', id });
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
