/** What the integration tests share: the extension id, waiting for a condition, and screenshots. */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const EXTENSION_ID = 'satchel-dev.satchel';

export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Asks the runner for a screenshot of the workbench (SATCHEL_SCREENSHOT_DIR/<name>.png) and waits for it. */
export async function screenshot(name: string): Promise<void> {
  const dir = process.env.SATCHEL_SCREENSHOT_DIR;
  if (!dir) return;
  const path = join(dir, `${name}.png`);
  rmSync(path, { force: true });
  console.log(`[[screenshot:${path}]]`);
  await until(`screenshot ${name}`, () => existsSync(path), 15_000);
}

/** Asks the runner to click a button of a visible notification toast, as a user would (e.g. a progress's Cancel). */
export function clickNotificationButton(label: string): void {
  console.log(`[[click-notification-button:${label}]]`);
}
