/**
 * Reading content out of a SeededFormat or Format (text in any TransferableString variant, bytes as
 * number arrays) and the pure rules applied to it: suggested names and byte sizes.
 */
import type { TransferableBytes, TransferableString } from '../piecesTypes.ts';
import type { FormatContentInput } from './inputs.ts';
import { InvalidInputError } from '../errors.ts';

export interface Content {
  /** Text content ('' when the content is binary and not UTF-8 text). */
  readonly text: string;
  /** Raw bytes when the content came as bytes. */
  readonly bytes?: number[];
  readonly size: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

declare global {
  interface String {
    /** ES2024 (Node 20+, every VS Code Satchel runs in); the project's lib is ES2023. */
    toWellFormed(): string;
  }
}

/**
 * Text as every door stores it (create, update, import, MCP, sync): each lone surrogate made
 * U+FFFD. UTF-8 cannot hold a lone surrogate, so the vault, SQLite's text and git would each write
 * U+FFFD for it anyway; storing it well-formed makes what this machine holds what another
 * machine receives, rather than two texts both sides take for the same.
 */
export function wellFormed(text: string): string {
  return text.toWellFormed();
}

function decodeBase64(value: string): string {
  return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

function fromDataUrl(value: string): string {
  const comma = value.indexOf(',');
  if (!value.startsWith('data:') || comma < 0) throw new InvalidInputError('data_url content must be a data: URL');
  const header = value.slice(5, comma);
  const payload = value.slice(comma + 1);
  return header.endsWith(';base64') ? decodeBase64(payload) : decodeURIComponent(payload);
}

export function textOfString(value: TransferableString | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value.raw === 'string') return wellFormed(value.raw);
  if (typeof value.base64 === 'string') return decodeBase64(value.base64);
  if (typeof value.base64_url === 'string') return decodeBase64(value.base64_url);
  if (typeof value.data_url === 'string') return fromDataUrl(value.data_url);
  return undefined;
}

export function bytesOfTransferable(value: TransferableBytes | undefined): number[] | undefined {
  if (!value) return undefined;
  return value.raw ?? value.base64 ?? value.base64_url ?? value.data_url;
}

/** UTF-8 text of `bytes`, or '' when they are not text (invalid UTF-8 or NUL bytes). */
export function textOfBytes(bytes: readonly number[]): string {
  if (bytes.includes(0)) return '';
  try {
    return strictUtf8.decode(Uint8Array.from(bytes));
  } catch {
    return '';
  }
}

/** The content of a seeded or stored format; fragment first, then file. */
export function contentOf(format: FormatContentInput): Content | undefined {
  for (const part of [format.fragment, format.file]) {
    if (!part) continue;
    const text = textOfString(part.string);
    if (text !== undefined) return { text, size: Buffer.byteLength(text, 'utf8') };
    const bytes = bytesOfTransferable(part.bytes);
    if (bytes !== undefined) return { text: textOfBytes(bytes), bytes, size: bytes.length };
  }
  return undefined;
}

const DECLARATION =
  /\b(?:function\*?|class|def|fn|func|interface|struct|enum|trait|type|module|object|procedure|sub)\s+([A-Za-z_$][\w$]*)/;
const BINDING = /\b(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)\s*[:=]/;

/**
 * How far into a text (from its first non-blank character) a name is looked for: a declaration or
 * a first line of prose sits at the start, and scanning a 64 MiB paste for one would cost its
 * whole length.
 */
export const NAME_SCAN_CHARS = 16_384;
const COMMENT_OPENER = /^\s*(?:\/\/+|#+|--|\/\*+|\*+|<!--|;+)\s*/;

/** A readable name for content that came without one. */
export function suggestName(text: string, fallback = 'Untitled snippet'): string {
  const start = Math.max(0, text.search(/\S/));
  const head = text.length - start > NAME_SCAN_CHARS ? text.slice(start, start + NAME_SCAN_CHARS) : text.slice(start);
  const declared = DECLARATION.exec(head) ?? BINDING.exec(head);
  if (declared?.[1]) return declared[1];
  for (const rawLine of head.split(/\r?\n/)) {
    const line = withoutCommentCloser(rawLine.replace(COMMENT_OPENER, '')).trim();
    if (/[\p{L}\p{N}]/u.test(line)) return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
  }
  return fallback;
}

/**
 * `line` without a trailing `*\/` or `-->`. A regex such as `\s*(?:\*\/|-->)\s*$` retries its
 * `\s*` from every position of a long run of spaces (quadratic); trimming first is one pass.
 */
function withoutCommentCloser(line: string): string {
  const trimmed = line.trimEnd();
  if (trimmed.endsWith('*/')) return trimmed.slice(0, -2);
  if (trimmed.endsWith('-->')) return trimmed.slice(0, -3);
  return line;
}
