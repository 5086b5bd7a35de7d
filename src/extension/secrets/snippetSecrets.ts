/**
 * What the editor knows of the secrets the host found in a snippet, apart from VS Code (so node tests run
 * it as the views do). The host records each finding on the asset as the interface's `Sensitive` (its
 * value in `text`, its span in `metadata.match.group`); the window holds the value only to find and mark
 * it in the user's own document. Nothing made here for people to read carries a value: summaries name the
 * kind and the line, previews show the named placeholder the doors write.
 */
import type { Asset } from '../../core/piecesTypes.ts';
import { placeholderFor } from '../../core/secrets/findings.ts';
import { assetText } from '../../client/assets.ts';

export interface SnippetSecret {
  /** The interface's `Sensitive.id`: what Not a Secret and Forget Secret name. */
  readonly id: string;
  /** `SensitiveCategoryEnum` (API_KEY, PRIVATE_KEY, …). */
  readonly category: string;
  /** `SensitiveSeverityEnum` (LOW, MODERATE, HIGH, UNKNOWN). */
  readonly severity: string;
  /** What it is ("AWS secret access key"). Never the value. */
  readonly label: string;
  /** The value itself: for finding and marking it in the user's document only, never for display. */
  readonly value: string;
  /** Its span in the snippet's code as the host recorded it (UTF-16, end exclusive), when it has one. */
  readonly start: number | undefined;
  readonly end: number | undefined;
  /** 1-based line of the value in the code, or undefined when it is not in the code (the name or description). */
  readonly line: number | undefined;
}

/** The secrets recorded on an asset, in the order they appear in `code` (the asset's code, for the lines). */
export function secretsOf(asset: Pick<Asset, 'sensitives'>, code: string): SnippetSecret[] {
  const found: SnippetSecret[] = [];
  for (const sensitive of asset.sensitives?.iterable ?? []) {
    if (!sensitive?.id || sensitive.deleted) continue;
    const group = sensitive.metadata?.match?.group;
    const value = sensitive.text || group?.text || '';
    let start: number | undefined;
    let end: number | undefined;
    // The span is in the text of the field the value was found in (the code, the name or the description):
    // it is the code's only when the code holds the value there.
    if (group && value && Number.isInteger(group.start) && Number.isInteger(group.end) && code.slice(group.start, group.end) === value) {
      start = group.start;
      end = group.end;
    } else if (value) {
      const at = code.indexOf(value);
      if (at !== -1) {
        start = at;
        end = at + value.length;
      }
    }
    found.push({
      id: sensitive.id,
      category: sensitive.category || 'UNKNOWN',
      severity: sensitive.severity || 'UNKNOWN',
      label: sensitive.name?.trim() || categoryName(sensitive.category || 'UNKNOWN'),
      value,
      start,
      end,
      line: start === undefined ? undefined : lineAt(code, start),
    });
  }
  return found.sort((a, b) => (a.start ?? Number.MAX_SAFE_INTEGER) - (b.start ?? Number.MAX_SAFE_INTEGER));
}

const known = new WeakMap<Asset, readonly SnippetSecret[]>();

/** The secrets of an asset the views hold (each asset object is read once: a change brings a new object). */
export function assetSecrets(asset: Asset): readonly SnippetSecret[] {
  let secrets = known.get(asset);
  if (!secrets) {
    secrets = asset.sensitives?.iterable?.length ? secretsOf(asset, assetText(asset)) : [];
    known.set(asset, secrets);
  }
  return secrets;
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

const CATEGORY_NAMES: Readonly<Record<string, string>> = {
  UNKNOWN: 'secret',
  SECRET: 'secret',
  API_KEY: 'API key',
  CLIENT_ID: 'client ID',
  CLIENT_SECRET: 'client secret',
  SECRET_KEY: 'secret key',
  API_TOKEN: 'API token',
  ACCESS_KEY: 'access key',
  ACCESS_TOKEN: 'access token',
  URL: 'URL with credentials',
  PUBLIC_KEY: 'public key',
  PRIVATE_KEY: 'private key',
  API_ID: 'API ID',
  WEB_HOOK_URL: 'webhook URL',
};

/** The interface's category as people say it (`API_KEY` → "API key"). */
export function categoryName(category: string): string {
  return CATEGORY_NAMES[category] ?? category.toLowerCase().replace(/_/g, ' ');
}

/** One finding for a list, a hover or a quick pick: "AWS secret access key · secret key · line 3". */
export function describeSecret(secret: Pick<SnippetSecret, 'label' | 'category' | 'line'>): string {
  const category = categoryName(secret.category);
  const parts = [secret.label];
  if (category.toLowerCase() !== secret.label.toLowerCase()) parts.push(category);
  parts.push(secret.line === undefined ? 'in its name or description' : `line ${secret.line}`);
  return parts.join(' · ');
}

/** The kinds found, each once, for a tooltip's first line: "AWS access key ID, AWS secret access key". */
export function secretKinds(secrets: readonly Pick<SnippetSecret, 'label'>[]): string {
  return [...new Set(secrets.map((secret) => secret.label))].join(', ');
}

/**
 * `text` with every occurrence of each secret's value replaced by its placeholder: what a hover or a
 * preview shows of the code, the description or the name. Values are replaced longest first, so a value
 * that contains another is hidden whole. Linear in the text for each distinct value.
 */
export function hideSecrets(text: string, secrets: readonly Pick<SnippetSecret, 'value' | 'label'>[]): string {
  const values = new Map<string, string>();
  for (const secret of secrets) if (secret.value && !values.has(secret.value)) values.set(secret.value, placeholderFor(secret));
  let out = text;
  for (const [value, placeholder] of [...values].sort((a, b) => b[0].length - a[0].length)) out = out.split(value).join(placeholder);
  return out;
}

/** A span of a document's text holding a secret's value. */
export interface SecretSpan {
  readonly secret: SnippetSecret;
  readonly start: number;
  readonly end: number;
}

/** More marks than this in one document would mean something else is wrong; the first ones are shown. */
export const MAX_SPANS = 500;

/**
 * Where each secret's value is in `text`, the document as it is now (it may hold unsaved edits, so the
 * host's offsets may be stale): every occurrence of each value, the one at the recorded offset attributed
 * to its own finding. Linear in the text for each distinct value; at most MAX_SPANS spans.
 */
export function locateSecrets(text: string, secrets: readonly SnippetSecret[]): SecretSpan[] {
  const byValue = new Map<string, SnippetSecret[]>();
  for (const secret of secrets) {
    if (!secret.value) continue;
    const list = byValue.get(secret.value) ?? [];
    list.push(secret);
    byValue.set(secret.value, list);
  }
  const spans: SecretSpan[] = [];
  for (const [value, owners] of byValue) {
    for (let at = text.indexOf(value); at !== -1 && spans.length < MAX_SPANS; at = text.indexOf(value, at + value.length)) {
      spans.push({ secret: owners.find((owner) => owner.start === at) ?? owners[0]!, start: at, end: at + value.length });
    }
  }
  // Overlapping values (one rule's match inside another's) are one mark: the first, widest span.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretSpan[] = [];
  for (const span of spans) if (!kept.length || span.start >= kept[kept.length - 1]!.end) kept.push(span);
  return kept;
}
