/**
 * The benchmark's second label rule (extract.ts): lines wholly inside an embedded block of another
 * language are not a sample of their file's extension. An HTML page's `<style>` holds CSS, its
 * `<script>` (without a type, or with a JavaScript one) JavaScript; a Markdown file's fenced code
 * block holds the fence's language, or unlabeled code. Decided from the file's text and the
 * window's place in it only, never from a classifier, alike for the tuning and held-out packages.
 * A block also names the language its lines are in, for the training cut's relabelling
 * (extract.ts, EMBEDDED_RULE=relabel).
 */
import { specificFromFence } from '../../../src/core/classify/hints.ts';
import { languageOf } from '../../../src/core/classify/languages.ts';

/** Lines `first` to `last` (0-based, inclusive) lie wholly inside one embedded block. */
export interface EmbeddedBlock {
  readonly first: number;
  readonly last: number;
  /** The language its lines are in (`css`, `js`, a fence's), undefined for a fence naming none Satchel knows. */
  readonly language: string | undefined;
}

/** `type` values that still mean JavaScript; any other (`text/template`, `application/ld+json`) is left alone. */
const javascriptTypes = new Set([
  '', 'module', 'text/javascript', 'application/javascript', 'application/x-javascript', 'text/ecmascript', 'application/ecmascript',
  'text/jscript',
]);

function scriptIsJavaScript(attributes: string): boolean {
  const type = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
  if (type === null) return true;
  return javascriptTypes.has((type[1] ?? type[2] ?? type[3] ?? '').trim().toLowerCase());
}

/** The lines lying wholly between a page's `<style…>`/`<script…>` and its closing tag. */
function htmlBlocks(lines: readonly string[]): EmbeddedBlock[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const text = lines.join('\n');
  const blocks: EmbeddedBlock[] = [];
  const open = /<(style|script)(?=[\s>/])([^>]*)>/gi;
  for (let match = open.exec(text); match !== null; match = open.exec(text)) {
    const tag = match[1]!.toLowerCase();
    const contentStart = match.index + match[0].length;
    const close = new RegExp(`</${tag}\\s*>`, 'i').exec(text.slice(contentStart));
    if (close === null) break;
    const contentEnd = contentStart + close.index;
    open.lastIndex = contentEnd + close[0].length;
    if (tag === 'script' && !scriptIsJavaScript(match[2]!)) continue;
    const first = starts.findIndex((start) => start >= contentStart);
    if (first === -1) continue;
    let last = first;
    // A line is inside when it starts after the opening tag and ends before the closing one.
    while (last < lines.length && starts[last]! + lines[last]!.length <= contentEnd) last++;
    last--;
    if (last >= first) blocks.push({ first, last, language: tag === 'style' ? 'css' : 'js' });
  }
  return blocks;
}

const fenceOpen = /^\s*(`{3,}|~{3,})\s*([^\s`{]*)/;

/** The language a fence's info string names, through the table the classifier reads hints with (`yml` → yaml). */
function fenceLanguage(line: string, fence: string): string | undefined {
  const specific = specificFromFence(line.slice(line.indexOf(fence) + fence.length));
  return specific === undefined ? undefined : (languageOf(specific)?.specific ?? specific);
}

/**
 * The lines between a Markdown fence and its closing fence (or the file's end, as CommonMark reads
 * an unclosed fence). A fence named `markdown` or `md` still holds Markdown and is left alone.
 * Fences are read at any indentation, since a README's fences often sit inside list items.
 */
function markdownBlocks(lines: readonly string[]): EmbeddedBlock[] {
  const blocks: EmbeddedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = fenceOpen.exec(lines[i]!);
    if (opening === null) continue;
    const fence = opening[1]!;
    if (fence.startsWith('`') && lines[i]!.slice(lines[i]!.indexOf(fence) + fence.length).includes('`')) continue;
    const info = opening[2]!.toLowerCase();
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end]!)) end++;
    if (end > i + 1 && info !== 'markdown' && info !== 'md') blocks.push({ first: i + 1, last: end - 1, language: fenceLanguage(lines[i]!, fence) });
    i = end;
  }
  return blocks;
}

/** The embedded blocks of another language in a file of `language` (html and md have them). */
export function embeddedBlocks(lines: readonly string[], language: string): EmbeddedBlock[] {
  if (language === 'html') return htmlBlocks(lines);
  if (language === 'md') return markdownBlocks(lines);
  return [];
}

/** The embedded block every line of the window `start`…`start + length - 1` lies inside, if one does. */
export function embeddedBlockAround(lines: readonly string[], language: string, start: number, length: number): EmbeddedBlock | undefined {
  return embeddedBlocks(lines, language).find((block) => start >= block.first && start + length - 1 <= block.last);
}

/** Whether every line of the window `start`…`start + length - 1` lies inside one embedded block. */
export function insideEmbeddedBlock(lines: readonly string[], language: string, start: number, length: number): boolean {
  return embeddedBlockAround(lines, language, start, length) !== undefined;
}
