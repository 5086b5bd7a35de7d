/**
 * The local user. Satchel has no Pieces account: every client is served one user record, made on
 * first use from the operating system's user name and kept in the store so its id never changes.
 * Real clients (the Pieces CLI, the Python SDK) refuse to start without a user; nothing here
 * signs anyone in anywhere.
 */
import { userInfo } from 'node:os';
import type { StoreContext } from '../context.ts';
import { UnsupportedError } from '../errors.ts';
import { newId, stamp } from '../time.ts';
import type { UserProfile } from '../piecesTypes.ts';

const LOOKUP = 'local';

export class LocalUser {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }

  /** The local user's profile, created (once, durably) on first read. */
  profile(): UserProfile {
    const existing = this.context.records.find<UserProfile>('user', LOOKUP);
    if (existing) return existing.data;
    return this.context.transaction(() => {
      const again = this.context.records.find<UserProfile>('user', LOOKUP);
      if (again) return again.data;
      const now = stamp();
      const name = osUserName();
      const profile: UserProfile = {
        id: newId(),
        name,
        username: name,
        created: now,
        updated: now,
        aesthetics: { theme: { dark: false }, font: { size: 14 } },
      };
      this.context.records.put('user', profile.id, profile, LOOKUP);
      this.context.publish({ kind: 'user', id: profile.id });
      return profile;
    });
  }

  /** What a client asking for a Pieces cloud account (sign-in, sign-out, cloud allocation) is told. */
  static cloudOnly(what: string): UnsupportedError {
    return new UnsupportedError(
      `${what} needs a Pieces cloud account, which Satchel does not have: it is local only. ` +
        'Every client already uses the local user (GET /user); nothing needs signing in.',
    );
  }
}

function osUserName(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    // No passwd entry (some containers): a user is still needed.
    return 'local';
  }
}
