/** Markdown shared by every place that shows code or user text as Markdown (MCP tool results, the chat participant, Markdown export, VS Code tooltips). */

/** `text` in a code fence longer than any run of backticks inside it, so the code cannot close it. Linear in the text. */
export function fenced(text: string, info = ''): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/**
 * User text (a name, a tag) shown inside Markdown in VS Code (tooltips, completion details, chat):
 * every character Markdown reads as syntax is escaped. (Markdown export escapes names its own way,
 * with HTML entities for `<`, `>` and `&`: exporter.ts.)
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
