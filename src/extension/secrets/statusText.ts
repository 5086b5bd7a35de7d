/**
 * What the status bar says about secrets, apart from VS Code: how many snippets hold one, and what sync
 * does with them (placeholders, except the snippets the user chose to sync with their secret).
 */

export interface SecretCounts {
  /** Snippets holding at least one secret. */
  readonly flagged: number;
  /** Of those, the ones the user chose to sync with their secret; undefined when the host did not say. */
  readonly syncedWithSecret: number | undefined;
}

export interface SecretsStatusText {
  readonly text: string;
  readonly tooltip: string;
}

const snippets = (n: number) => (n === 1 ? '1 snippet' : `${n} snippets`);

/** The item's text and tooltip, or undefined when no snippet holds a secret (the item is hidden). */
export function secretsStatusText({ flagged, syncedWithSecret }: SecretCounts): SecretsStatusText | undefined {
  if (flagged <= 0) return undefined;
  const withSecret = Math.min(syncedWithSecret ?? 0, flagged);
  const redacted = flagged - withSecret;
  const hold = `${snippets(flagged)} ${flagged === 1 ? 'holds' : 'hold'} a secret.`;
  const sync =
    syncedWithSecret === undefined
      ? ''
      : withSecret === 0
      ? `Sync pushes ${flagged === 1 ? 'it' : 'them'} with placeholders instead of the values.`
      : `Sync pushes ${snippets(redacted)} with placeholders; ${snippets(withSecret)} with ${withSecret === 1 ? 'its' : 'their'} secret, as you chose.`;
  return {
    text: withSecret ? `$(key) ${flagged} (${withSecret} synced)` : `$(key) ${flagged}`,
    tooltip: `${hold} ${sync ? `${sync} ` : ''}Agents and exports get placeholders. Click to list them.`,
  };
}
