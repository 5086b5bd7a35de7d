/**
 * The opening of a snippet as the MCP doors that cut a text show it: get_snippet always, the
 * resource for a text over a snippet's content limit (stored before the limit existed). One rule at
 * both doors: the first MAX_CONTENT_CHARS characters, read from the text's stored head, with each
 * value hidden by the whole text's recorded findings cut there (a key that begins before the cut is
 * hidden too, issue 32), so neither door reads a 60 MB text on the host's event loop.
 */
import type { Satchel } from '../../core/satchel.ts';
import { agentView, scannedText } from '../agentSecrets.ts';
import { MAX_CONTENT_CHARS } from './snippetViews.ts';

export interface AgentOpening {
  /** At most MAX_CONTENT_CHARS characters of the text, each value as its placeholder ('' for binary content). */
  readonly text: string;
  /** Characters of the whole stored text. */
  readonly chars: number;
  readonly binary: boolean;
  /** The snippet's name, each value as its placeholder. */
  readonly name: string;
}

/** Snippet `id`'s opening and `name` as an agent may read them; `opening` when the door has read it already. */
export async function agentOpening(
  core: Satchel,
  id: string,
  name: string,
  opening: { text: string; chars: number; binary: boolean } = core.assets.opening(id, MAX_CONTENT_CHARS),
): Promise<AgentOpening> {
  const view = await agentView(core, { code: opening.binary ? '' : scannedText(core, id, opening, true), name }, id);
  const code = opening.binary ? opening.text : view.texts.code;
  return { text: code.length > MAX_CONTENT_CHARS ? code.slice(0, MAX_CONTENT_CHARS) : code, chars: opening.chars, binary: opening.binary, name: view.texts.name };
}
