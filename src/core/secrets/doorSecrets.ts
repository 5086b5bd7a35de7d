/**
 * What every door that leaves the machine (sync, agents, exports, the copy connector) asks of the
 * secrets detector, and how it hides and restores values. A door never sends a text it has not had
 * findings for: it asks `findingsIn` for the exact texts it is about to send, which answers from what
 * the detector recorded when that is current and scans now otherwise, so an unfinished background scan
 * never lets a value through.
 */
import { placeholderFor, type SecretField, type SecretFinding } from './findings.ts';
import { findingsAcross } from './echoes.ts';

/** The texts of a snippet a value can sit in. */
export interface SecretTexts {
  readonly code: string;
  readonly name: string;
  readonly description?: string | undefined;
}

export interface DoorSecrets {
  /**
   * The findings in `texts` (the snippet `assetId`'s, when it is one: its dismissed values are left
   * out), for exactly these texts: recorded ones when they were made for them, else a scan now.
   */
  findingsIn(texts: SecretTexts, assetId?: string): Promise<readonly SecretFinding[]>;
  /**
   * True when `findingsIn` given the snippet's stored texts with its code cut (an opening) answers with
   * the whole text's findings cut there, so a value that begins in the opening and ends past it is hidden
   * too; otherwise a door that must catch such a value gives the whole text (agentSecrets.ts).
   */
  readonly answersForOpenings?: boolean;
  /** The findings for exactly these texts when they are known without scanning (the apply of a sync runs in a transaction). */
  knownFindings?(texts: SecretTexts, assetId: string): readonly SecretFinding[] | undefined;
  /** The user chose to sync this snippet with its values (the one exception, named in the sync summary). */
  syncsWithSecrets(assetId: string): boolean;
  /**
   * Before a door sends many snippets (a sync): the snippets not scanned since their last write
   * scanned now, a batch at a time, so that `findingsIn` answers each from what is recorded.
   */
  scanBeforeSending?(options: ScanBeforeSending): Promise<void>;
}

/** `signal` stops the scan between two snippets; `onProgress` hears how many of those pending at the start are done. */
export interface ScanBeforeSending {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** What a sync sent of the snippets holding secrets: how many went with their values hidden, and which went with them by the user's choice. */
export interface SecretsSent {
  readonly redacted: number;
  readonly withSecrets: ReadonlyArray<{ readonly id: string; readonly name: string }>;
}

/** A finding's span as a door hides it: overlapping findings merged under the first one's label (as redactText does). */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly label: string;
}

/** The spans of `findings` in `text`, in order, overlaps merged; linear in the findings after their sort. */
export function secretSpans(text: string, findings: readonly Pick<SecretFinding, 'start' | 'end' | 'label'>[]): SecretSpan[] {
  const sorted = findings
    .filter((f) => f.end > f.start && f.start >= 0 && f.start < text.length)
    .map((f) => ({ start: f.start, end: Math.min(f.end, text.length), label: f.label }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: SecretSpan[] = [];
  for (const span of sorted) {
    const last = spans[spans.length - 1];
    if (last !== undefined && span.start < last.end) {
      if (span.end > last.end) spans[spans.length - 1] = { ...last, end: span.end };
    } else spans.push(span);
  }
  return spans;
}

function fieldText(texts: SecretTexts, field: SecretField): string {
  return field === 'code' ? texts.code : field === 'name' ? texts.name : (texts.description ?? '');
}

function spansOf(texts: SecretTexts, findings: readonly SecretFinding[], field: SecretField): SecretSpan[] {
  return secretSpans(fieldText(texts, field), findings.filter((f) => f.field === field));
}

function hide(text: string, spans: readonly SecretSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + placeholderFor(span);
    at = span.end;
  }
  return out + text.slice(at);
}

/** `texts` with every value replaced by its placeholder; `redacted` says whether any was. */
export function redactTexts<T extends SecretTexts>(texts: T, findings: readonly SecretFinding[]): { texts: T; redacted: boolean } {
  if (findings.length === 0) return { texts, redacted: false };
  const code = hide(texts.code, spansOf(texts, findings, 'code'));
  const name = hide(texts.name, spansOf(texts, findings, 'name'));
  const description = texts.description === undefined ? undefined : hide(texts.description, spansOf(texts, findings, 'description'));
  const redacted = code !== texts.code || name !== texts.name || description !== texts.description;
  return { texts: { ...texts, code, name, ...(description !== undefined ? { description } : {}) }, redacted };
}

const OPEN = '«secret: ';
const CLOSE = '»';

/**
 * Texts a door sends together that are no snippet's fields (a conversation's title and messages, the
 * strings of one answer), each as it may leave with the findings that hid it: a value found in one is
 * hidden where it echoes in the others (echoes.ts). An empty text is not scanned.
 */
export async function hiddenAcross(texts: readonly string[], secrets: Pick<DoorSecrets, 'findingsIn'>): Promise<Array<{ readonly text: string; readonly findings: readonly SecretFinding[] }>> {
  const found = await findingsAcross(texts, (text) => (text === '' ? Promise.resolve([]) : secrets.findingsIn({ code: text, name: '' })));
  return texts.map((text, i) => {
    const findings = found[i]!;
    return { text: findings.length === 0 ? text : redactTexts({ code: text, name: '' }, findings).texts.code, findings };
  });
}

/**
 * Websites as a one-way door sends them (an export, an agent's reply): a value in a URL (a webhook,
 * a token in its query, a password in it) or in a website's name is its placeholder. Answers the same
 * array when nothing was hidden.
 */
export async function hiddenWebsites<W extends { readonly url: string; readonly name: string }>(websites: readonly W[], secrets: Pick<DoorSecrets, 'findingsIn'>): Promise<readonly W[]> {
  if (websites.length === 0) return websites;
  const hidden = await hiddenAcross(websites.flatMap((site) => [site.url, site.name]), secrets);
  if (hidden.every((shown) => shown.findings.length === 0)) return websites;
  return websites.map((site, i) => ({ ...site, url: hidden[2 * i]!.text, name: hidden[2 * i + 1]!.text }));
}

/** Whether a text holds a placeholder (what a door wrote where a value was). */
export function holdsPlaceholder(text: string): boolean {
  return text.includes(OPEN);
}

/** One value of the local text, as it was hidden. */
interface HiddenValue {
  readonly value: string;
  used: boolean;
}

/** Values in the order they were hidden, and the first that may be unused (so a lookup is amortized constant). */
interface HiddenList {
  readonly items: HiddenValue[];
  next: number;
}

/** A placeholder's label is a short name ("AWS secret access key"); a longer stretch is not one. */
const MAX_LABEL_CHARS = 200;

/** Lines longer than this are not used to match a placeholder to its value (a minified line would be copied per placeholder). */
const LINE_KEY_CHARS = 2000;

/**
 * `incoming` (a redacted text that came back, maybe edited elsewhere) with each placeholder replaced by
 * the value it stands for in `local` (this machine's text, whose values `spans` mark), so this machine
 * keeps its own values. A placeholder is matched first to the value on the same redacted line at the same
 * place among that line's placeholders, else to the first unused value of its label; one with no value
 * here stays as it is. Linear in the texts.
 */
export function restoreText(incoming: string, local: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0 || !holdsPlaceholder(incoming)) return incoming;
  const byLine = new Map<string, HiddenList>();
  const byLabel = new Map<string, HiddenList>();
  // Where each span's placeholder sits in the redacted local text.
  const positions: number[] = [];
  let shift = 0;
  for (const span of spans) {
    positions.push(span.start + shift);
    shift += placeholderFor(span).length - (span.end - span.start);
  }
  const localLines = linesAt(hide(local, spans), positions);
  spans.forEach((span, index) => {
    const hidden: HiddenValue = { value: local.slice(span.start, span.end), used: false };
    push(byLine, `${localLines[index]}\0${span.label}`, hidden);
    push(byLabel, span.label, hidden);
  });
  const found = placeholdersIn(incoming);
  const incomingLines = linesAt(incoming, found.map((site) => site.open));
  let out = '';
  let at = 0;
  found.forEach((site, index) => {
    const hidden = firstUnused(byLine.get(`${incomingLines[index]}\0${site.label}`)) ?? firstUnused(byLabel.get(site.label));
    if (hidden === undefined) return;
    hidden.used = true;
    out += incoming.slice(at, site.open) + hidden.value;
    at = site.close + CLOSE.length;
  });
  return out + incoming.slice(at);
}

/** The placeholders in a text: where each opens and closes and its label (one never spans lines). */
function placeholdersIn(text: string): Array<{ open: number; close: number; label: string }> {
  const sites: Array<{ open: number; close: number; label: string }> = [];
  let from = 0;
  // The next closing mark, found once for every opening before it (many openings and one close stay linear).
  let close = -1;
  for (let open = text.indexOf(OPEN); open >= 0; open = text.indexOf(OPEN, from)) {
    if (close < open + OPEN.length) close = text.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) break;
    const label = close - open <= MAX_LABEL_CHARS ? text.slice(open + OPEN.length, close) : '\n';
    if (label.includes('\n') || label.includes(OPEN)) {
      from = open + 1;
      continue;
    }
    sites.push({ open, close, label });
    from = close + CLOSE.length;
  }
  return sites;
}

/** For each of `positions` (ascending) in `text`: its line (when not too long) and its place among the positions on that line. One pass. */
function linesAt(text: string, positions: readonly number[]): string[] {
  const keys: string[] = [];
  let lineEnd = -1;
  let line = '';
  let place = 0;
  for (const at of positions) {
    if (at > lineEnd) {
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      const end = text.indexOf('\n', at);
      lineEnd = end < 0 ? text.length : end;
      line = lineEnd - lineStart <= LINE_KEY_CHARS ? text.slice(lineStart, lineEnd) : '';
      place = 0;
    }
    keys.push(`${line}\0${place++}`);
  }
  return keys;
}

/** `incoming`'s texts with this machine's values put back where their placeholders are (restoreText). */
export function restoreTexts<T extends SecretTexts>(incoming: T, local: SecretTexts, findings: readonly SecretFinding[]): T {
  const restore = (field: SecretField): string => restoreText(fieldText(incoming, field), fieldText(local, field), spansOf(local, findings, field));
  const description = incoming.description === undefined ? undefined : restore('description');
  return { ...incoming, code: restore('code'), name: restore('name'), ...(description !== undefined ? { description } : {}) };
}

function push(map: Map<string, HiddenList>, key: string, value: HiddenValue): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, { items: [value], next: 0 });
  else list.items.push(value);
}

function firstUnused(list: HiddenList | undefined): HiddenValue | undefined {
  if (list === undefined) return undefined;
  while (list.next < list.items.length && list.items[list.next]!.used) list.next++;
  return list.items[list.next];
}

/** What an agent that wrote a value is told (undefined: it wrote none). */
export function keptText(findings: ReadonlyArray<Pick<SecretFinding, 'label' | 'line'> & { readonly field: string }>): string | undefined {
  if (findings.length === 0) return undefined;
  const listed = [...new Map(findings.map((f) => [`${f.label}\0${f.field}\0${f.line}`, f])).values()]
    .slice(0, 5)
    .map((f) => `${f.label} (${f.field === 'code' ? `line ${f.line}` : f.field})`)
    .join(', ');
  const more = findings.length > 5 ? ', …' : '';
  return (
    `It holds ${findings.length === 1 ? 'a secret' : `${findings.length} secrets`}: ${listed}${more}. ` +
    'The value is kept on this machine and the snippet is flagged; agents, sync and exports see a placeholder («secret: …») instead. ' +
    'Do not repeat the value in your reply.'
  );
}
