/**
 * How a kept text (a replaced content, a description) is stored: its bytes (UTF-8 for text), and
 * deflated once it has been packed. A write keeps a text as it is (deflating inside the write's
 * transaction would hold the event loop: 0.1–0.3 ms for a typical snippet, 100 ms or more for
 * 4 MiB); the compactor packs it afterwards, deflating on libuv's thread pool (textPacker.ts).
 * Source code deflates to about a quarter of its size.
 */
import { deflateRaw, inflateRaw, inflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';
import { isBinary, type RevisionContent } from './state.ts';

/** `encoding` bits: binary (else UTF-8 text), deflated, and tried (deflating did not make it smaller). */
const BINARY = 1;
const DEFLATED = 2;
export const TRIED = 4;

/** Below this many bytes a text stays as it is (deflate's own framing would eat the gain). */
export const PACK_FROM_BYTES = 128;

export interface EncodedText {
  readonly encoding: number;
  readonly data: Uint8Array;
}

/** A text as a write keeps it: not yet deflated. */
export function encodeContent(content: RevisionContent): EncodedText {
  if (isBinary(content)) return { encoding: BINARY, data: Uint8Array.from(content.bytes) };
  return { encoding: 0, data: Buffer.from(content.text, 'utf8') };
}

export function decodeContent(encoded: EncodedText): RevisionContent {
  return contentOf(encoded.encoding, (encoded.encoding & DEFLATED) !== 0 ? inflateRawSync(encoded.data) : Buffer.from(encoded.data));
}

const inflate = promisify(inflateRaw);

/** `decodeContent` inflating on libuv's thread pool: a 4 Mi-character text takes tens of ms to inflate. */
export async function decodeContentOffLoop(encoded: EncodedText): Promise<RevisionContent> {
  return contentOf(encoded.encoding, (encoded.encoding & DEFLATED) !== 0 ? await inflate(encoded.data) : Buffer.from(encoded.data));
}

function contentOf(encoding: number, raw: Buffer): RevisionContent {
  return (encoding & BINARY) !== 0 ? { text: '', bytes: [...raw] } : { text: raw.toString('utf8') };
}

export function isPacked(encoding: number): boolean {
  return (encoding & DEFLATED) !== 0;
}

const deflate = promisify(deflateRaw);

/** The text deflated, off the event loop; as it was (marked tried) when deflating does not make it smaller. */
export async function packed(encoded: EncodedText): Promise<EncodedText> {
  const data = await deflate(encoded.data);
  return data.length < encoded.data.length ? { encoding: encoded.encoding | DEFLATED, data } : { encoding: encoded.encoding | TRIED, data: encoded.data };
}
