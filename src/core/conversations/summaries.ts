/**
 * A structured extractive summary (models.md §5.2): Problem (the opening of the first user message),
 * Key points (the best assistant sentences by TextRank, preferring actions and code over questions)
 * and Outcome (the last user message, when it reports a resolution).
 */
import { codeIdentifier, contentWords, prose, sentences, truncate } from './text.ts';
import type { TitleMessage } from './titles.ts';

export const MAX_KEY_POINTS = 2;
const PROBLEM_CHARS = 240;
/**
 * TextRank compares every pair of sentences (n² weights, 30 passes over them): past a few hundred
 * it costs seconds and gigabytes, so the candidates are an even sample of this many, spread over
 * the whole conversation.
 */
export const MAX_RANKED_SENTENCES = 150;
/** A candidate is ranked on its start: a key point is shown cut to 220 characters anyway. */
const RANKED_SENTENCE_CHARS = 400;
/** The problem and outcome are read from the opening of their message. */
const OPENING_CHARS = 4_096;

const actionVerb =
  /^(add|use|create|run|set|change|install|check|make|replace|move|update|remove|enable|disable|configure|initiali[sz]e|deploy|wrap|call|pass|mock|await|increase|decrease|split|rename|store|keep|put|define|declare|write|drop|index|cache|retry|pin|upgrade|downgrade|restart|export|import|return|avoid|start|switch|point|give|reset|clear|delete|try|verify|ensure|model|normali[sz]e)\b/i;
const resolution =
  /\b(works?|worked|working|fixed|solved|resolved|passes|passed|passing|green|thanks|thank you|that did it|did the trick|now takes|deployed|succeeded|perfect|go with|going with|settled on|decided|no (more )?errors)\b/i;

export function extractiveSummary(messages: readonly TitleMessage[]): string {
  const users = messages.filter((message) => message.role === 'USER' && prose(message.text));
  const assistants = messages.filter((message) => message.role === 'ASSISTANT' && prose(message.text));
  const lines: string[] = [];

  const opening = users[0] ?? messages.find((message) => prose(message.text));
  if (opening) lines.push(`Problem: ${problem(prose(opening.text.slice(0, OPENING_CHARS)))}`);

  const points = keyPoints(assistants.flatMap((message) => sentences(prose(message.text))));
  if (points.length > 0) lines.push(`Key points: ${points.join(' ')}`);

  const last = users.length > 1 ? users[users.length - 1] : undefined;
  if (last && resolution.test(last.text)) {
    const statements = sentences(prose(last.text.slice(0, OPENING_CHARS))).filter((sentence) => !sentence.endsWith('?'));
    if (statements.length > 0) lines.push(`Outcome: ${truncate(statements.join(' '), PROBLEM_CHARS)}`);
  }
  return lines.join('\n');
}

function problem(text: string): string {
  let result = '';
  for (const sentence of sentences(text)) {
    if (result && result.length + sentence.length > PROBLEM_CHARS) break;
    result = result ? `${result} ${sentence}` : sentence;
  }
  return truncate(result || text, PROBLEM_CHARS);
}

/** TextRank over the candidate sentences, weighted toward actions and code; original order kept. */
function keyPoints(all: readonly string[]): string[] {
  const candidates = evenSample(
    all.filter((sentence) => !sentence.trim().endsWith('?') && contentWords(sentence.slice(0, RANKED_SENTENCE_CHARS)).length >= 3),
    MAX_RANKED_SENTENCES,
  );
  if (candidates.length <= MAX_KEY_POINTS) return candidates.map((sentence) => ensureStop(truncate(sentence, 220)));
  const bags = candidates.map((sentence) => new Set(contentWords(sentence.slice(0, RANKED_SENTENCE_CHARS))));
  const n = candidates.length;
  const weights: number[][] = bags.map((a, i) =>
    bags.map((b, j) => {
      if (i === j) return 0;
      let common = 0;
      for (const word of a) if (b.has(word)) common++;
      return common === 0 ? 0 : common / (Math.log(a.size + 1) + Math.log(b.size + 1));
    }),
  );
  const outWeight = weights.map((row) => row.reduce((sum, weight) => sum + weight, 0));
  let rank = new Array<number>(n).fill(1);
  for (let iteration = 0; iteration < 30; iteration++) {
    rank = rank.map((_, i) => {
      let sum = 0;
      for (let j = 0; j < n; j++) if (weights[j]![i]! > 0) sum += (weights[j]![i]! / outWeight[j]!) * rank[j]!;
      return 0.15 + 0.85 * sum;
    });
  }
  const scored = candidates.map((sentence, index) => {
    let score = rank[index]!;
    const start = sentence.slice(0, RANKED_SENTENCE_CHARS);
    if (actionVerb.test(start.replace(/^(you should|you can|i'd|i would|first,?|then,?|also,?|finally,?)\s+/i, ''))) score *= 1.6;
    if (codeIdentifier.test(start)) score *= 1.3;
    return { sentence, index, score };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_KEY_POINTS)
    .sort((a, b) => a.index - b.index)
    .map((entry) => ensureStop(truncate(entry.sentence, 220)));
}

/** At most `limit` of `items`, evenly spaced, in their order (all of them when there are few enough). */
function evenSample<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  return Array.from({ length: limit }, (_, i) => items[Math.floor((i * items.length) / limit)]!);
}

function ensureStop(sentence: string): string {
  return /[.!…]$/.test(sentence) ? sentence : `${sentence}.`;
}
