/** Markdown shared by every place that shows code as text (MCP tool results, the chat participant, Markdown export). */

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
