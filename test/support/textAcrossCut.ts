/**
 * A snippet's text laid out for the MCP doors that cut it where get_snippet does (MAX_CONTENT_CHARS):
 * a GitHub token in its first line, a private key whose first SHOWN_OF_KEY characters fall before the
 * cut and the rest after it, then filler: a door that cuts it must hide the key as far as it shows.
 */
import { PLANTED } from './fakeSecrets.ts';
import { PLANTED as SHAPES } from '../core/secrets/plantedSecrets.ts';
import { MAX_CONTENT_CHARS } from '../../src/server/mcp/snippetViews.ts';

export const KEY = SHAPES.find((planted) => planted.shape === 'privatekey:PrivateKey')!;
/** The key's first characters that fall before the cut. */
export const SHOWN_OF_KEY = 120;
export const OPENING = `const github = "${PLANTED.githubToken}";\n`;

/** `chars` characters of source lines, ending in a line break. */
export function filler(chars: number): string {
  const line = 'export const table_entry = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]; // entry\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars - 1) + '\n';
}

/** The opening, filler to the key, the key across the cut, then `after` characters of filler that end in `closing`. */
export function textAcrossCut(after: number, closing = ''): string {
  const keyAt = MAX_CONTENT_CHARS - SHOWN_OF_KEY - KEY.text.indexOf(KEY.value);
  return OPENING + filler(keyAt - OPENING.length) + KEY.text + filler(after - closing.length) + closing;
}
