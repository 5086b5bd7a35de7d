import type { Migration } from '../store/migrations.ts';

/**
 * Schema of the applications area. Its versions are 3, then 203, 303… (so areas never collide);
 * 103 went to the connector's schema with the tables it changes (see connector/schema.ts).
 */
export const applicationMigrations: readonly Migration[] = [
  {
    version: 3,
    name: 'applications, engagement, sessions, usage events',
    up(db) {
      db.exec(`
        CREATE TABLE applications (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          version TEXT NOT NULL,
          platform TEXT NOT NULL,
          data TEXT NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          last_seen TEXT
        );
        CREATE INDEX applications_identity ON applications (name, version, platform);
        CREATE TABLE application_engagement (
          application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
          metric TEXT NOT NULL,
          value INTEGER NOT NULL,
          PRIMARY KEY (application_id, metric)
        ) WITHOUT ROWID;
        CREATE TABLE application_sessions (
          id TEXT PRIMARY KEY,
          application_id TEXT,
          opened TEXT NOT NULL,
          closed TEXT
        );
        CREATE TABLE application_usage_events (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          application_id TEXT,
          data TEXT NOT NULL,
          created TEXT NOT NULL
        );
        CREATE INDEX application_usage_events_created ON application_usage_events (created);
      `);
    },
  },
];
