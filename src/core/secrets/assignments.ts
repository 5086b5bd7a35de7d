/**
 * What the secretlint preset lacks for snippets: a long random value assigned to a name that says
 * it is secret (`password = "…"`, `client_secret: …`, `API_KEY=…`, `"token": "…"`). A hand-written
 * scanner, not a regular expression: it looks only around each `=` and `:`, a bounded distance each
 * way, so it is linear in its input whatever the characters.
 *
 * Measured for false positives (docs/secrets.md): the name must END in a secret word (`secretName`,
 * `tokenizer`, `password_hash` are not secrets), the value must be 16–256 characters without spaces,
 * mix letters and digits, look random (Shannon entropy) and be no reference, call, type, UUID or
 * placeholder (`process.env.X`, `getToken()`, `string`, `${TOKEN}`, `<your-key>`).
 */

/** Longest name read back from an operator, and longest value read forward. */
const MAX_NAME = 64;
const MAX_VALUE = 256;
const MIN_VALUE = 16;
/** Bits per character a value needs (random base64 of 16+ characters has about 3.7–4.0; hex about 3.5–3.8). */
const MIN_ENTROPY = 3.0;

/** Last words of a name that make what it holds a secret. */
const SECRET_LAST = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials']);
/** Words before `key` that make it a secret key. */
const KEY_QUALIFIERS = new Set(['api', 'access', 'secret', 'private', 'auth', 'signing', 'encryption', 'master', 'client', 'app', 'account', 'service']);
/** Values that are not a credential whatever the name: references, placeholders, well-known examples. */
const NOT_VALUES = ['process.env', 'os.environ', 'getenv', 'env[', 'example', 'changeme', 'placeholder', 'your', 'xxxx', '«secret', '${', '{{', '<', '%('];

export interface AssignedValue {
  /** The name the value is assigned to, as written. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

const isNameChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 /* _ */ || c === 45 /* - */ || c === 46 /* . */;
const isQuote = (c: number): boolean => c === 34 || c === 39 || c === 96;
const isBlank = (c: number): boolean => c === 32 || c === 9;
/** What a bare (unquoted) value may hold: token characters, no brackets, quotes or separators. */
const isBareChar = (c: number): boolean => isNameChar(c) || c === 43 /* + */ || c === 47 /* / */ || c === 61 /* = */ || c === 126 /* ~ */;

/** Every value assigned to a secret-sounding name in `text`, in order. Linear: O(n · (MAX_NAME + MAX_VALUE)). */
export function assignedSecrets(text: string): AssignedValue[] {
  const out: AssignedValue[] = [];
  let resumeAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 61 && c !== 58) continue; // '=' or ':'
    if (i < resumeAt) continue;
    const operator = operatorAt(text, i);
    if (operator === undefined) continue;
    const name = nameBefore(text, i);
    if (name === undefined || !isSecretName(name)) continue;
    const value = valueAfter(text, i + operator);
    if (value === undefined) continue;
    out.push({ name, start: value.start, end: value.end });
    resumeAt = value.end;
  }
  return out;
}

/** The operator's length at `i` (`=`, `:`, `:=`, `=>`), or undefined where it is a comparison, `::` or a URL's `://`. */
function operatorAt(text: string, i: number): number | undefined {
  const before = i > 0 ? text.charCodeAt(i - 1) : 0;
  const after = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  if (text.charCodeAt(i) === 58) {
    if (before === 58 || after === 58 || after === 47 /* :/ */) return undefined;
    return after === 61 ? 2 : 1;
  }
  // '==', '!=', '<=', '>=', '+=' and the like are comparisons or updates, not assignments of a literal.
  if (after === 61 || before === 61 || before === 33 || before === 60 || before === 62 || before === 43 || before === 45 || before === 42 || before === 58) return undefined;
  return after === 62 ? 2 : 1;
}

/** The name written before the operator at `i` (blanks and one closing quote skipped), or undefined. */
function nameBefore(text: string, i: number): string | undefined {
  let j = i - 1;
  for (let k = 0; k < 8 && j >= 0 && isBlank(text.charCodeAt(j)); k++) j--;
  // `name = `, `"name": `, `$config['name'] = `: a closing bracket, then a closing quote.
  if (j >= 0 && text.charCodeAt(j) === 93 /* ] */) j--;
  if (j >= 0 && isQuote(text.charCodeAt(j))) j--;
  const end = j + 1;
  while (j >= 0 && end - j <= MAX_NAME && isNameChar(text.charCodeAt(j))) j--;
  if (end - j > MAX_NAME) return undefined;
  const name = text.slice(j + 1, end);
  return name.length > 0 ? name : undefined;
}

/** The words of a name: snake, kebab, dotted and camel case split, lower-cased. */
function wordsOf(name: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let k = 0; k < name.length; k++) {
    const ch = name[k]!;
    const code = name.charCodeAt(k);
    if (code === 95 || code === 45 || code === 46) {
      if (word) words.push(word.toLowerCase());
      word = '';
    } else if (code >= 65 && code <= 90 && word.length > 0 && !/[A-Z]/.test(word[word.length - 1]!)) {
      words.push(word.toLowerCase());
      word = ch;
    } else word += ch;
  }
  if (word) words.push(word.toLowerCase());
  return words;
}

export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_LAST.has(last)) return true;
  return last === 'key' && words.length > 1 && KEY_QUALIFIERS.has(words.at(-2)!);
}

/** The value after an operator ending before `from`: quoted on one line, or bare to a separator. */
function valueAfter(text: string, from: number): { start: number; end: number } | undefined {
  let j = from;
  for (let k = 0; k < 8 && j < text.length && isBlank(text.charCodeAt(j)); k++) j++;
  if (j >= text.length) return undefined;
  const open = text.charCodeAt(j);
  let start: number;
  let end: number;
  if (isQuote(open)) {
    start = j + 1;
    end = start;
    while (end < text.length && end - start <= MAX_VALUE && text.charCodeAt(end) !== open && text.charCodeAt(end) !== 10) end++;
    if (end >= text.length || text.charCodeAt(end) !== open) return undefined;
  } else {
    start = j;
    end = start;
    while (end < text.length && end - start <= MAX_VALUE && isBareChar(text.charCodeAt(end))) end++;
    // A bare value ends the statement or the line: `getToken(…)`, `a.b[c]` and `x + y` are expressions.
    const next = end < text.length ? text.charCodeAt(end) : 10;
    if (!(next === 10 || next === 13 || next === 59 /* ; */ || next === 44 /* , */ || isBlank(next) || next === 125 /* } */ || next === 41 /* ) */)) return undefined;
    if (isBlank(next)) {
      let after = end;
      for (let k = 0; k < 8 && after < text.length && isBlank(text.charCodeAt(after)); k++) after++;
      const then = after < text.length ? text.charCodeAt(after) : 10;
      if (!(then === 10 || then === 13 || then === 35 /* # */ || then === 47 /* // */ || then === 59) && !shellAssignment(text, from, start)) return undefined;
    }
  }
  const length = end - start;
  if (length < MIN_VALUE || length > MAX_VALUE) return undefined;
  return looksRandom(text.slice(start, end)) ? { start, end } : undefined;
}

/**
 * `NAME=value` with nothing between the name, the `=` and the value: a shell's assignment, which a
 * command may follow on its line (`AWS_SECRET_ACCESS_KEY=… aws s3 ls`, `API_TOKEN=… ./deploy.sh`).
 * Code that puts words after a bare value (`x = y + z`) spaces its operator.
 */
function shellAssignment(text: string, from: number, start: number): boolean {
  if (start !== from || from < 2 || text.charCodeAt(from - 1) !== 61) return false;
  const before = text.charCodeAt(from - 2);
  return !isBlank(before) && before !== 58 /* := */;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value that is a credential rather than a word, path, reference or identifier. */
export function looksRandom(value: string): boolean {
  let letters = 0;
  let digits = 0;
  for (let k = 0; k < value.length; k++) {
    const c = value.charCodeAt(k);
    if (c === 32 || c === 9) return false;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
    else if (c >= 48 && c <= 57) digits++;
  }
  if (letters === 0 || digits === 0) return false;
  const lower = value.toLowerCase();
  if (NOT_VALUES.some((marker) => lower.includes(marker))) return false;
  if (UUID.test(value)) return false;
  // A path or URL (`"/oauth2/v2.0/token"`; credentials inside URLs are the basic-auth and connection-string rules').
  if (value.startsWith('/') || value.startsWith('.') || value.includes('://')) return false;
  // A value naming what it is (`my_secret_token_1`) or a constant's name (`SIGN_IN_V2_SUBMIT_PASSWORD`) is a reference.
  if (/password|passwd|secret|token/.test(lower)) return false;
  if (/^[A-Z0-9]+(_[A-Z0-9]+){2,}$/.test(value)) return false;
  // A dotted identifier (config.auth.token, self.api_key) is a reference.
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  return entropy(value) >= MIN_ENTROPY;
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
