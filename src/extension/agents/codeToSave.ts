/** Which code `/save` stores. Pure, so plain tests cover the choice. */
import { specificFromFence } from '../../core/classify/hints.ts';
import { codeBlocks, lastCodeBlock, proseOf, type CodeBlock } from './snippetText.ts';

export interface PickedCode {
  readonly block: CodeBlock;
  readonly source: 'your message' | 'the editor selection' | 'this chat';
  /** The prompt's words outside any code block: the snippet's name when given. */
  readonly name: string | undefined;
}

/**
 * A code block in the prompt is the most explicit choice; else the editor selection; else the
 * last code block of the chat so far (`history` oldest first), e.g. one a model just wrote.
 */
export function pickCodeToSave(prompt: string, selection: CodeBlock | undefined, history: readonly string[]): PickedCode | undefined {
  const inPrompt = codeBlocks(prompt).filter((b) => b.code.trim()).at(-1);
  const name = proseOf(prompt).trim().replace(/\s+/g, ' ').slice(0, 80) || undefined;
  if (inPrompt) return { block: stated(inPrompt), source: 'your message', name };
  if (selection?.code.trim()) return { block: stated(selection), source: 'the editor selection', name };
  const fromHistory = lastCodeBlock(history);
  return fromHistory ? { block: stated(fromHistory), source: 'this chat', name } : undefined;
}

/**
 * The block with the language its fence states (`{.rust}`, `python title=…`), or none so the host
 * classifies the code: a fence such as `diff` or `console` named no language Satchel knows, and
 * the save was refused.
 */
function stated(block: CodeBlock): CodeBlock {
  return { code: block.code, language: specificFromFence(block.language) };
}
