/** Asking a yes/no question on the terminal; a script without a terminal is never asked. */
import { createInterface } from 'node:readline/promises';

/** Whether the user can be asked (stdin and stdout are a terminal). */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Asks `question` and answers true only for y/yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
