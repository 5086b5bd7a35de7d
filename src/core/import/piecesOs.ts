/**
 * A running Pieces OS, found and read over its own interface for an import: GET /.well-known/version
 * on each port Pieces OS listens on (39300–39333, and 1000 where older versions did), never Satchel
 * itself (its version reply carries `x-satchel-version`, and the host's own port is skipped). Only
 * loopback addresses are read: Pieces OS serves on this machine, and the host must not be made to
 * fetch from elsewhere on a caller's behalf.
 */
import { DomainError, InvalidInputError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { countText } from '../countText.ts';

/** Where Pieces OS listens: the first free port from 39300 on (its documented range), and 1000 before that. */
export const PIECES_OS_PORTS: readonly number[] = [...Array.from({ length: 34 }, (_, at) => 39300 + at), 1000];

/** The header Satchel's version reply carries (server/routes/wellKnown.ts): the mark of Satchel, skipped by discovery. */
export const SATCHEL_VERSION_HEADER = 'x-satchel-version';

/** How long one port may take to answer the version check (Pieces OS answers in milliseconds). */
const PROBE_MS = 1_500;
/** How long one read of the library may take (a large /assets/identifiers, one asset with an image). */
const READ_MS = 60_000;

/** No Pieces OS answered, or the one named stopped answering: nothing to import from (503 for a client). */
export class PiecesUnavailableError extends DomainError {
  readonly code = 'unavailable';
}

export interface PiecesOs {
  /** Its base URL, e.g. http://127.0.0.1:39300 (no trailing slash). */
  readonly url: string;
  /** What GET /.well-known/version answered. */
  readonly version: string;
}

export interface FindOptions {
  /** Ports to try, in order of preference (default PIECES_OS_PORTS). */
  readonly ports?: readonly number[] | undefined;
  /** Ports never tried: the host's own. */
  readonly skip?: readonly number[] | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The URL as the import reads it: http on a loopback address, no path; throws InvalidInputError otherwise. */
export function piecesUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(given) ? given : `http://${given}`);
  } catch {
    throw new InvalidInputError(`${JSON.stringify(given)} is not a URL (give the Pieces OS address, e.g. http://localhost:39300)`);
  }
  if (url.protocol !== 'http:') throw new InvalidInputError(`Pieces OS is read over http on this machine, not ${url.protocol}`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new InvalidInputError(`Pieces OS is read on this machine only (localhost, 127.0.0.1 or [::1]), not ${url.hostname}`);
  }
  return `${url.protocol}//${url.host}`;
}

/**
 * What the address answers to the version check: its version when it is Pieces OS, undefined when
 * it is Satchel, is not listening or does not answer like Pieces OS.
 */
export async function probePiecesOs(url: string, signal?: AbortSignal): Promise<PiecesOs | 'satchel' | undefined> {
  try {
    const response = await fetch(`${url}/.well-known/version`, { signal: withTimeout(signal, PROBE_MS), redirect: 'error' });
    if (response.headers.has(SATCHEL_VERSION_HEADER)) {
      await response.body?.cancel();
      return 'satchel';
    }
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const text = (await readBounded(response, 256)).trim();
    // A string op: plain text, or a JSON string (pieces-wire.md §1).
    const version = text.startsWith('"') ? (JSON.parse(text) as unknown) : text;
    return typeof version === 'string' && /^\d+\.\d+/.test(version) ? { url, version } : undefined;
  } catch {
    if (signal?.aborted) throw signal.reason;
    return undefined;
  }
}

/** The first port (in `ports`' order) where Pieces OS answers, all tried at once; undefined when none does. */
export async function findPiecesOs(options: FindOptions = {}): Promise<PiecesOs | undefined> {
  const skip = new Set(options.skip ?? []);
  const ports = (options.ports ?? PIECES_OS_PORTS).filter((port) => !skip.has(port));
  const answers = await Promise.all(ports.map((port) => probePiecesOs(`http://127.0.0.1:${port}`, options.signal)));
  return answers.find((answer): answer is PiecesOs => answer !== undefined && answer !== 'satchel');
}

/** The Pieces OS at `url` (checked to be Pieces OS, not Satchel), or the one found on its ports. */
export async function resolvePiecesOs(url: string | undefined, options: FindOptions = {}): Promise<PiecesOs> {
  if (url !== undefined) {
    const base = piecesUrl(url);
    const answer = await probePiecesOs(base, options.signal);
    if (answer === 'satchel') throw new InvalidInputError(`${base} is Satchel itself, not Pieces OS`);
    if (answer === undefined) throw new PiecesUnavailableError(`No Pieces OS answers at ${base} (GET /.well-known/version)`);
    return answer;
  }
  const found = await findPiecesOs(options);
  if (found === undefined) {
    throw new PiecesUnavailableError('No Pieces OS is running on this machine (ports 39300–39333 and 1000 were tried); start Pieces OS, or give its address');
  }
  return found;
}

/** Reads JSON from Pieces OS: undefined for a 404 (a route this version does not have); throws PiecesUnavailableError otherwise. */
export async function readPiecesJson(base: string, path: string, signal: AbortSignal | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, { signal: withTimeout(signal, READ_MS), redirect: 'error' });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new PiecesUnavailableError(`Pieces OS at ${base} stopped answering (GET ${path}: ${(error as Error).message})`);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PiecesUnavailableError(`Pieces OS at ${base} answered GET ${path} with ${response.status}`);
  }
  const text = await readBounded(response, LIMITS.importFileChars);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PiecesUnavailableError(`Pieces OS at ${base} answered GET ${path} with something other than JSON`);
  }
}

function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** The body as text, refused once it is longer than `maxBytes` (read no further: a reply is bounded as an import file is). */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PiecesUnavailableError(`A reply of Pieces OS is larger than ${countText(maxBytes)} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
