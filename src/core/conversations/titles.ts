/**
 * A conversation title by rules (models.md §5.2): from the first user message, "<Error> in
 * <identifier>" when it names both, otherwise its first sentence that states an intent, cut at the
 * first clause boundary and stripped of filler, possessives and articles, at most ten words.
 */
import { codeIdentifier, prose, sentences, stopWords, trimEnd, trimStart, truncate } from './text.ts';

export interface TitleMessage {
  readonly role: string;
  readonly text: string;
}

export const MAX_TITLE_WORDS = 10;
/** A title is a line in a list: one long "word" (a hash, a path) is cut to this. */
export const MAX_TITLE_CHARS = 80;
/**
 * A title comes from the opening of the first message: past this many characters of it there is
 * no sentence a title would be made of, and reading further would only cost time.
 */
const TITLE_SCAN_CHARS = 8_192;
export const UNTITLED = 'New conversation';

const errorName = /\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Fault))\b|\b(E[A-Z]{3,}|SIG[A-Z]{3,})\b/;
const intent =
  /\b(how|why|what|can|could|help|want|need|trying|try|getting|fails?|failing|failed|error|broken|slow|crash\w*|design\w*|build\w*|set ?up|deploy\w*|migrat\w*|add|fix|make|should|best way|is there)\b/i;

const fillers: readonly RegExp[] = [
  /^(hi|hello|hey)( there)?\b[,!.]?\s*/i,
  /^(so|ok|okay|well|quick question)[,:]?\s+/i,
  /^(can|could|would) you (please )?(help me( to| with)?|tell me|explain|show me)\s*/i,
  /^please (help me( to| with)?\s*)?/i,
  /^(i('m| am)|we('re| are))\s+(?=\w+ing\b)(?!(getting|seeing|hitting|trying|working|having)\b)/i,
  /^i('m| am) (getting|seeing|hitting|trying to|working on|having)\s+/i,
  /^i (keep getting|get|see|want to|need to|would like to|'d like to|have)\s+/i,
  /^we (want to|need to|are trying to|have)\s+/i,
  /^(how|what's the best way) (do|can|should) (i|we)\s+/i,
  /^help( me)? (with|to)?\s*/i,
];

const dropped = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'their', 'this', 'that', 'these', 'those', 'some']);

export function ruleTitle(messages: readonly TitleMessage[]): string {
  const first = messages.find((message) => message.role === 'USER' && prose(message.text)) ?? messages.find((m) => prose(m.text));
  if (!first) return UNTITLED;
  const text = prose(first.text.slice(0, TITLE_SCAN_CHARS));

  const error = text.match(errorName);
  const identifier = text.replace(errorName, ' ').match(codeIdentifier);
  if (error && identifier) {
    return truncate(`${error[1] ?? error[2]} in ${identifier[0].replace(/`/g, '')}`, MAX_TITLE_CHARS);
  }

  const candidates = sentences(text);
  const chosen = candidates.find((sentence) => intent.test(sentence)) ?? candidates[0] ?? text;
  return clauseTitle(chosen) || UNTITLED;
}

function clauseTitle(sentence: string): string {
  let clause = trimEnd(sentence, (c) => c === '?' || c === '!' || c === '.');
  for (const filler of fillers) clause = clause.replace(filler, '');
  for (let again = true; again; ) {
    const before = clause;
    for (const filler of fillers) clause = clause.replace(filler, '');
    again = before !== clause;
  }
  // The first clause boundary after at least two words ends the title.
  const boundary = clause.slice(1).search(/[,;:(]|\s[-–—]\s|\s(but|because|since|although|which|so that|and then)\s/i);
  if (boundary > 0 && clause.slice(0, boundary + 1).trim().split(/\s+/).length >= 2) clause = clause.slice(0, boundary + 1);
  const kept = clause
    .split(/\s+/)
    .map((word) => trimEnd(trimStart(word, (c) => `'"(`.includes(c)), (c) => `'"),.;:!?`.includes(c)))
    .filter((word) => word && !dropped.has(word.toLowerCase()));
  const limited = kept.slice(0, MAX_TITLE_WORDS);
  while (limited.length > 1 && stopWords.has(limited[limited.length - 1]!.toLowerCase())) limited.pop();
  const title = limited.join(' ');
  return title ? truncate(title[0]!.toUpperCase() + title.slice(1), MAX_TITLE_CHARS) : '';
}
