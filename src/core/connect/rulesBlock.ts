/**
 * The optional rules block: a few lines in an agent's instructions file (CLAUDE.md, AGENTS.md,
 * GEMINI.md, .goosehints, a Cursor rule) saying when to search Satchel and when to save to it.
 * It sits between markers so connecting again replaces it and disconnecting removes only it.
 */
import type { ConfigChange } from './connectPlan.ts';

const BEGIN = '<!-- satchel:begin (written by Satchel: Connect an Agent; remove it with satchel disconnect --rules) -->';
const BEGIN_PREFIX = '<!-- satchel:begin';
const END = '<!-- satchel:end -->';

export const RULES = `## Satchel: the user's saved snippets

The \`satchel\` MCP server is the user's own library of code snippets and conversations, on this machine.
- Before writing a helper, query, config or boilerplate the user may already have, call \`search_snippets\`
  (words and tags) and reuse what it finds; \`get_snippet\` gives the full code.
- When the user asks to save, keep or remember code, call \`save_snippet\` (after \`check_snippet_saved\`, so
  nothing is saved twice). To change a saved snippet, read it with \`get_snippet\` and call \`update_snippet\`
  with the revision it gave, rather than saving a copy.
- Never save secrets (keys, tokens, passwords) to Satchel.`;

/** A Cursor rule is a file of its own, applied to every request. */
const CURSOR_HEADER = '---\ndescription: When to search and save in Satchel, the user\'s snippet library\nalwaysApply: true\n---\n\n';

export function planRules(file: string, before: string | undefined, add: boolean, cursorRule = false): ConfigChange {
  const kept = withoutBlock(before ?? '');
  let after: string;
  if (add) {
    const block = `${BEGIN}\n${RULES}\n${END}\n`;
    const start = kept === '' && cursorRule ? CURSOR_HEADER : kept === '' ? '' : `${kept.replace(/\n*$/, '')}\n\n`;
    after = `${start}${block}`;
  } else {
    after = before === undefined ? '' : kept;
  }
  const changed = after !== (before ?? '') && !(before === undefined && after === '');
  return { file, before, after: changed ? after : (before ?? ''), changed, previous: undefined, pieces: [], piecesReplaced: false };
}

/** The text without Satchel's block (and the blank line it was set off by). */
function withoutBlock(text: string): string {
  const start = text.indexOf(BEGIN_PREFIX);
  if (start < 0) return text;
  const endAt = text.indexOf(END, start);
  if (endAt < 0) return text;
  const before = text.slice(0, start).replace(/\n\n$/, '\n');
  const after = text.slice(endAt + END.length).replace(/^\n/, '');
  const rest = `${before}${after}`;
  return rest.trim() === '' || rest.trim() === CURSOR_HEADER.trim() ? '' : rest;
}
