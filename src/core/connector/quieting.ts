/**
 * How the connector learns to stay quiet: copy-time prompts are only tolerable when a user who keeps
 * dismissing a kind of suggestion sees less of it. A pure function of the application's recent
 * answers for one kind, so the policy is testable apart from storage and clocks.
 */

export type SuggestionKind = 'reuse' | 'save';

export interface ReactionRecord {
  readonly outcome: 'accepted' | 'dismissed';
  /** Epoch milliseconds. */
  readonly at: number;
}

export interface QuietingSettings {
  /** Consecutive dismissals after which suggestions of that kind start getting quieter. */
  readonly quietAfter: number;
  /** Consecutive dismissals after which that kind is suppressed for a while. */
  readonly muteAfter: number;
  /** How long a suppression lasts; doubles with each further dismissal beyond `muteAfter`, capped at 7 days. */
  readonly muteMs: number;
  /** Dismissals older than this no longer count. */
  readonly forgetMs: number;
}

export const defaultQuietingSettings: QuietingSettings = {
  quietAfter: 2,
  muteAfter: 5,
  muteMs: 60 * 60 * 1000,
  forgetMs: 7 * 24 * 60 * 60 * 1000,
};

export interface Quieting {
  /** 0 = normal; each step makes a suggestion of this kind harder to trigger. */
  readonly level: number;
  /** Epoch ms until which this kind is not suggested at all, if it is muted now. */
  readonly mutedUntil?: number;
  /** The consecutive recent dismissals this is based on. */
  readonly dismissals: number;
}

const MAX_MUTE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The quieting of one suggestion kind given its reactions (any order). Only the run of dismissals
 * since the last acceptance counts, and only those younger than `forgetMs`: accepting a suggestion
 * of that kind restores it at once, and silence for a week forgives.
 */
export function quietingFor(reactions: readonly ReactionRecord[], now: number, settings: QuietingSettings = defaultQuietingSettings): Quieting {
  const ordered = [...reactions].sort((a, b) => a.at - b.at);
  let streak = 0;
  let lastDismissal = 0;
  for (const reaction of ordered) {
    if (reaction.outcome === 'accepted') {
      streak = 0;
    } else if (now - reaction.at <= settings.forgetMs) {
      streak++;
      lastDismissal = Math.max(lastDismissal, reaction.at);
    }
  }
  if (streak < settings.quietAfter) return { level: 0, dismissals: streak };
  const level = streak - settings.quietAfter + 1;
  if (streak < settings.muteAfter) return { level, dismissals: streak };
  const mute = Math.min(MAX_MUTE_MS, settings.muteMs * 2 ** (streak - settings.muteAfter));
  const mutedUntil = lastDismissal + mute;
  return mutedUntil > now ? { level, mutedUntil, dismissals: streak } : { level, dismissals: streak };
}

/** The reuse score a match needs at a quieting level: each level asks for 0.1 more, up to 0.95. */
export function quietedThreshold(base: number, level: number): number {
  return Math.min(0.95, base + 0.1 * level);
}

/** The snippet size a save suggestion needs at a quieting level: each level asks for half as much again. */
export function quietedMinimum(base: number, level: number): number {
  return Math.ceil(base * (1 + 0.5 * level));
}
