/**
 * A long string's JSON escaping in pieces, for the two sides that write large JSON texts a piece at a
 * time (the client's import requests, the server's large replies): one JSON.stringify of a string of
 * tens of megabytes holds the thread for half a second or more.
 */

/**
 * The inside of `text`'s JSON string (no quotes), in pieces of at most `size` characters of `text`
 * (two where `size` is 1 and a pair must stay whole).
 * A piece never ends between the two halves of a surrogate pair (each half would be escaped on its
 * own), so the pieces join into exactly what JSON.stringify writes for the whole.
 */
export function* jsonStringPieces(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    // A piece of one character that would cut a pair takes the pair whole instead.
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
}
