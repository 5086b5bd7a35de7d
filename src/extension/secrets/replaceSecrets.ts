/**
 * Replace Secret with Placeholder against the host, apart from VS Code: reads the snippet as the host has
 * it (text and revision), turns the chosen values into named tab stops (secretTabStops.ts) and writes it
 * back as one conditional edit (a revision, If-Match on the one read, so a change made meanwhile elsewhere
 * is never overwritten), then marks it a snippet template. Open documents follow the change as they follow
 * any other tool's edit.
 */
import type { SatchelClient } from '../../client/satchelClient.ts';
import { assetText } from '../../client/assets.ts';
import { replaceWithTabStops } from './secretTabStops.ts';
import { locateSecrets, secretsOf } from './snippetSecrets.ts';

/** Raised when none of the chosen values is in the snippet's code any more. */
export class SecretGoneError extends Error {
  constructor(name: string) {
    super(`The secret is no longer in the code of "${name}".`);
    this.name = 'SecretGoneError';
  }
}

/**
 * Replaces the values of the findings `sensitiveIds` (every finding in the code when empty) by tab stops.
 * Returns how many values were replaced. Throws SecretGoneError when none is left, and the client's
 * stale-revision error when the snippet changed between the read and the write.
 */
export async function replaceSecretsWithPlaceholders(client: SatchelClient, assetId: string, sensitiveIds: readonly string[]): Promise<number> {
  const { asset, revision } = await client.assets.getRevised(assetId);
  const text = assetText(asset);
  const wanted = new Set(sensitiveIds);
  const chosen = secretsOf(asset, text).filter((secret) => (wanted.size === 0 || wanted.has(secret.id)) && secret.line !== undefined);
  const spans = locateSecrets(text, chosen);
  if (!spans.length) throw new SecretGoneError(asset.name || 'Untitled');
  const { syntax } = await client.snippets.info(assetId);
  const { text: body, replaced } = replaceWithTabStops(
    text,
    syntax,
    spans.map((span) => ({ start: span.start, end: span.end, label: span.secret.label, category: span.secret.category })),
  );
  await client.history.edit(assetId, { content: body }, { expectedRevision: revision }, { transferables: false });
  // After the text: a template flag on the old text would make its `$` read as tab stops.
  if (!syntax) await client.snippets.setInfo(assetId, { syntax: true });
  return replaced;
}
