/**
 * A name (a snippet's, a tag's) made into a file name that every system accepts: the characters
 * Windows, macOS or Linux refuse become spaces, the name is at most MAX_CHARS long, trailing dots
 * and spaces (which Windows drops) go, and Windows' reserved device names (CON, PRN, AUX, NUL,
 * COM1–COM9, LPT1–LPT9, with any extension, in any case) are prefixed with `_`, since a file
 * named so cannot be created there.
 */
const UNSAFE = /[\\/:*?"<>|\n\r]+/g;
const MAX_CHARS = 80;
const RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])\s*(\..*)?$/i;

/** `name` as a file name (without an extension: the caller adds one); `fallback` when nothing of it is left. */
export function safeFileName(name: string, fallback: string): string {
  const safe = name.replace(UNSAFE, ' ').trim().slice(0, MAX_CHARS).replace(/[. ]+$/, '');
  if (safe === '') return fallback;
  return reservedOnWindows(safe) ? `_${safe}` : safe;
}

/** Windows' reserved device names (CON, NUL.txt, com1…), which no file or folder there may be called. */
export function reservedOnWindows(name: string): boolean {
  return RESERVED.test(name);
}
