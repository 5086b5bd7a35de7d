/**
 * A body checked against its operation's schema, with the one 400 message for a body it refuses.
 * The route (server/http.ts) and the JSON worker (server/jsonWorkerThread.ts) both check with it,
 * so a large body refused off the event loop gets the words a small one gets on it.
 */
import type { z } from 'zod';

export type Checked<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly message: string };

/** `value` by `schema`; a refusal names the first offending field ("Invalid Seed at asset.format: …"). */
export function check<S extends z.ZodType>(schema: S, value: unknown, what: string): Checked<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, message: `Invalid ${what}${where}: ${issue?.message ?? 'not acceptable'}` };
}
