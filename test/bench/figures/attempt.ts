/** A figure is either measured or unavailable with the reason (an area not landed, a failure). */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export async function attempt<T>(label: string, measure: () => Promise<T>): Promise<Outcome<T>> {
  const started = performance.now();
  process.stdout.write(`  ${label}… `);
  try {
    const value = await measure();
    process.stdout.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return { ok: true, value };
  } catch (error) {
    const reason = (error as Error).message?.split('\n')[0] ?? String(error);
    process.stdout.write(`unavailable: ${reason}\n`);
    return { ok: false, reason };
  }
}
