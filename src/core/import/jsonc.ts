/**
 * JSON with comments and trailing commas (what VS Code snippet files are), read in linear time:
 * strict JSON.parse first, and only when that fails one pass that drops comments and a second that
 * drops trailing commas, both outside strings.
 */

/** Parses `text` as JSON, or as JSONC when it is not strict JSON; throws SyntaxError otherwise. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(withoutTrailingCommas(withoutComments(text)));
  }
}

function withoutComments(text: string): string {
  const parts: string[] = [];
  let copyFrom = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      parts.push(text.slice(copyFrom, i));
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      copyFrom = i;
      continue;
    }
    if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      parts.push(text.slice(copyFrom, i), ' ');
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      copyFrom = i;
      continue;
    }
    i++;
  }
  parts.push(text.slice(copyFrom));
  return parts.join('');
}

function withoutTrailingCommas(text: string): string {
  const parts: string[] = [];
  let copyFrom = 0;
  let comma = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      comma = -1;
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x2c /* , */) comma = i;
    else if ((c === 0x7d /* } */ || c === 0x5d) /* ] */ && comma !== -1) {
      parts.push(text.slice(copyFrom, comma));
      copyFrom = comma + 1;
      comma = -1;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) comma = -1;
    i++;
  }
  parts.push(text.slice(copyFrom));
  return parts.join('');
}

/** The index after the string starting at `start` (a quote), or the text's end if it never closes. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}
