/**
 * Pieces' tools through the agents' door for secrets (issue 32), as Satchel's own tools are
 * (agentSecrets.ts): every string an answer carries, in its JSON text and its structured content, is
 * scanned and each value found shown as its placeholder; a query that names a value the library holds
 * finds nothing. Pieces' answers mix snippets, memories, messages and annotations in one document,
 * so the door is applied to the whole answer rather than to each kind of record.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Satchel } from '../../../core/satchel.ts';
import { hiddenAcross } from '../../../core/secrets/doorSecrets.ts';
import { guarded, toolResult } from '../toolResults.ts';
import { isRecord } from '../../../core/plainObjects.ts';

/** Shorter strings cannot hold a value the detector finds (the shortest rule needs 16 characters with its name). */
const SHORTEST = 8;

/** Runs a Pieces tool's body (guarded) and lets its answer out through the door; `query` is what the agent searched for, if anything. */
export async function throughDoor(core: Satchel, tool: string, query: string | undefined, body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  if (query !== undefined && query !== '' && core.assets.secrets.holdsKnownValue(query)) {
    return toolResult('Nothing found: Satchel does not search for the values of secrets its snippets hold.', { results: [] });
  }
  const result = await guarded(core.context.logger, tool, body);
  return result.isError === true ? result : redactedResult(core, result);
}

/**
 * `result` with every value the detector finds in its strings replaced by its placeholder, and the
 * echoes of those values in any of its strings (echoes.ts): a snippet's name made from its first line
 * holds most of a key its code holds, with nothing there a rule can find.
 */
export async function redactedResult(core: Satchel, result: CallToolResult): Promise<CallToolResult> {
  const secrets = core.doorSecrets();
  if (secrets === undefined) return result;
  const original = result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent, null, 2);
  // Every string first: a value found in one hides its echoes in all.
  const strings = new Set<string>();
  const collect = async (text: string): Promise<string> => (text.length >= SHORTEST && strings.add(text), text);
  if (result.structuredContent !== undefined) await redactedValue(result.structuredContent, collect);
  for (const item of result.content) if (item.type === 'text' && item.text !== original) await collect(item.text);
  const scanned = [...strings];
  const hidden = new Map((await hiddenAcross(scanned, secrets)).map((shown, i) => [scanned[i]!, shown.text]));
  const redact = async (text: string): Promise<string> => hidden.get(text) ?? text;
  const structured = result.structuredContent === undefined ? undefined : await redactedValue(result.structuredContent, redact);
  const content = await Promise.all(
    result.content.map(async (item) => {
      if (item.type !== 'text') return item;
      // The JSON text of the structured answer (Pieces' form) is written again from the redacted document.
      if (original !== undefined && item.text === original) return { ...item, text: JSON.stringify(structured, null, 2) };
      return { ...item, text: await redact(item.text) };
    }),
  );
  return { ...result, content, ...(structured !== undefined && isRecord(structured) ? { structuredContent: structured } : {}) };
}

async function redactedValue(value: unknown, redact: (text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return Promise.all(value.map((item) => redactedValue(item, redact)));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await redactedValue(item, redact);
    return out;
  }
  return value;
}
