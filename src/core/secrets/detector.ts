/**
 * The one secrets detector: secretlint's recommended preset (every rule but the comment filter: a
 * `secretlint-disable` comment in a snippet must not let an agent or a pasted file hide a value) and
 * Satchel's assignment rule (assignments.ts), over each text field of a snippet. Runs wherever it is
 * called; SecretScanner (secretScanner.ts) moves large texts to a worker thread.
 */
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { runRules, type ConfiguredRule } from './ruleRunner.ts';
import type { SecretField, SecretFinding } from './findings.ts';
import { ASSIGNMENT_RULE, assignmentLabel, ruleLabel } from './ruleLabels.ts';
import { assignedSecrets } from './assignments.ts';

const FILTER_COMMENTS = '@secretlint/secretlint-rule-filter-comments';

/**
 * What the detector is: the preset's version and the revision of Satchel's own rules. A store whose
 * findings were made by another reads every snippet again (SecretRecords.readAgainFor): what a newer
 * detector finds in a snippet scanned before must not stay unknown to the doors until it is edited.
 * Bump the revision with any change of what the detector finds; the preset's version is checked
 * against the installed one by a test.
 */
export const DETECTOR_VERSION = 'secretlint-rule-preset-recommend 13.0.7; satchel 2';

/** Each rule of the preset on its own (so a test can run one), the comment filter left out. */
export const presetRules = rules.filter((rule) => rule.meta.id !== FILTER_COMMENTS);

/**
 * Rule options: the AWS rule looks for access key ids only when asked (half of the key pair a boto3
 * client holds). Its account-id message is dropped below: an account number is no credential, and
 * its span covers the name it is assigned to.
 */
const RULE_OPTIONS: Readonly<Record<string, Record<string, unknown>>> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };
const DROPPED_MESSAGES = new Set(['AWSAccountID']);

function configOf(only?: string): ConfiguredRule[] {
  return presetRules
    .filter((rule) => only === undefined || rule.meta.id === only)
    .map((rule) => ({ rule, options: RULE_OPTIONS[rule.meta.id] ?? {} }));
}
const fullConfig = configOf();

/** The texts of a snippet a value can sit in. */
export interface SecretTexts {
  readonly code: string;
  readonly name?: string | undefined;
  readonly description?: string | undefined;
}

/** Every finding in the snippet's fields, each field scanned on its own, sorted by field then position. */
export async function detectSecrets(texts: SecretTexts, options: { readonly rule?: string } = {}): Promise<SecretFinding[]> {
  const out: SecretFinding[] = [];
  for (const field of ['code', 'name', 'description'] as const) {
    const text = texts[field];
    if (text) out.push(...(await detectInText(text, field, options.rule)));
  }
  return out;
}

/** The findings of one text: the preset's, then the assignment rule's where no preset finding overlaps. */
export async function detectInText(text: string, field: SecretField, rule?: string): Promise<SecretFinding[]> {
  const lines = new LineIndex(text);
  const found: SecretFinding[] = [];
  if (rule !== ASSIGNMENT_RULE) {
    // The values come back unmasked: each finds its span where a rule's range misses it (valueSpan).
    const reports = await runRules(rule === undefined ? fullConfig : configOf(rule), text, pathFor(text));
    for (const message of reports) {
      if (DROPPED_MESSAGES.has(message.messageId)) continue;
      const { start, end } = valueSpan(text, message.range, message.data);
      if (!(end > start) || isPlaceholder(text.slice(start, end))) continue;
      const label = ruleLabel(message.ruleId, message.messageId);
      found.push({ ruleId: message.ruleId, ...label, field, start, end, line: lines.lineOf(start) });
    }
  }
  if (rule === undefined || rule === ASSIGNMENT_RULE) {
    const covered = new Coverage(found);
    for (const value of assignedSecrets(text)) {
      if (covered.overlaps(value.start, value.end)) continue;
      found.push({ ruleId: ASSIGNMENT_RULE, ...assignmentLabel(value.name), field, start: value.start, end: value.end, line: lines.lineOf(value.start) });
    }
  }
  return found.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * The file name a text is linted as: three rules look only at files of a kind (a service account key
 * in a .json file, `_authToken=` in an .npmrc), which a snippet of that kind should still be to them.
 * Never .p12: that rule reads the named file from disk. Linear: one search, one look at the start.
 */
function pathFor(text: string): string {
  if (looksLikeNpmrc(text)) return '.npmrc';
  return text.trimStart().startsWith('{') ? 'snippet.json' : 'snippet';
}

/** Whether an `_authToken=` starts a line or follows a registry's `//host/:` (not a regex or prose naming it). */
function looksLikeNpmrc(text: string): boolean {
  for (let at = text.indexOf('_authToken='); at !== -1; at = text.indexOf('_authToken=', at + 1)) {
    const before = at === 0 ? '\n' : text[at - 1];
    if (before === '\n' || before === ':') return true;
  }
  return false;
}

/**
 * The span of the value a rule reported. Most ranges are the value's; the AWS secret key rule's starts
 * at the name it is assigned to and is as long as the value, so its end falls short of the value's:
 * the value the message carries (its longest string) is looked for from the range's start, a bounded
 * window on, and the span is widened to hold both the range and the value.
 */
function valueSpan(text: string, range: readonly [number, number], data: unknown): { start: number; end: number } {
  const [start, end] = range;
  const values = typeof data === 'object' && data !== null ? Object.values(data).filter((v): v is string => typeof v === 'string' && v.length >= 8) : [];
  const value = values.sort((a, b) => b.length - a.length)[0];
  if (value === undefined || text.slice(start, end).includes(value)) return { start, end };
  const windowEnd = Math.min(text.length, end + value.length + 512);
  const at = text.slice(start, windowEnd).indexOf(value);
  if (at === -1) return { start, end };
  // The name before the value is not hidden: the placeholder stands where the value was.
  return { start: start + at, end: start + at + value.length };
}

/**
 * A value in a key's shape that is a documentation placeholder, not a key: `sk_live_xxxxxxxx…`,
 * `ghp_000000…`. No generated token repeats one character eight times or has so few distinct ones.
 */
function isPlaceholder(value: string): boolean {
  // Keys in blocks (an OpenSSH private key holds runs of 'A') and long values are never placeholders.
  if (value.length > 200 || value.includes('\n')) return false;
  let run = 1;
  const distinct = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    if (distinct.size < 8) distinct.add(value[i]!);
    run = i > 0 && value[i] === value[i - 1] ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return distinct.size < 8 && value.length >= 16;
}

/**
 * The spans already found, asked in increasing order of start (assignedSecrets' order): one sweep
 * over them in all, so a text with 100k findings costs linear time, not their product.
 */
class Coverage {
  private readonly spans: ReadonlyArray<{ readonly start: number; readonly end: number }>;
  private next = 0;
  /** The furthest end among the spans that start before the last asked end. */
  private reach = -1;

  constructor(found: readonly SecretFinding[]) {
    this.spans = found.map((f) => ({ start: f.start, end: f.end })).sort((a, b) => a.start - b.start);
  }

  overlaps(start: number, end: number): boolean {
    while (this.next < this.spans.length && this.spans[this.next]!.start < end) {
      this.reach = Math.max(this.reach, this.spans[this.next]!.end);
      this.next++;
    }
    // Spans that start before `end` and reach past `start` overlap; a span consumed for an earlier ask reaches at most `reach`.
    return this.reach > start;
  }
}

/** Line numbers of offsets, from one pass over the text. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** 1-based line of `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}
