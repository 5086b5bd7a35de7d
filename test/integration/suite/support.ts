/** What the integration tests share: the extension id, waiting for a condition, screenshots, the real mouse, a file system of another scheme. */
import * as vscode from 'vscode';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { MouseOutcome, MouseRequest } from '../host/mouseActions.ts';

export type { MousePoint } from '../host/mouseActions.ts';

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

/**
 * A minimal in-memory file system of its own scheme: documents and folders that are neither
 * `file:` nor `untitled:`, as a remote window's `vscode-remote:` workspace is to a UI extension.
 */
export class MemoryFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Uint8Array>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.length };
    if (this.under(uri).length > 0 || uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const children = new Map<string, vscode.FileType>();
    for (const rest of this.under(uri)) {
      const [name, ...deeper] = rest.split('/');
      children.set(name!, deeper.length > 0 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...children];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, content);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('read-only test file system');
  }
  /** The paths below a folder, relative to it. */
  private under(uri: vscode.Uri): string[] {
    const prefix = `${uri.path.replace(/\/$/, '')}/`;
    return [...this.files.keys()].filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  }
}

/** Distributes Omit over a union, so each request keeps its own fields. */
type WithoutDone<T> = T extends unknown ? Omit<T, 'done'> : never;

/**
 * Asks the runner to use the real mouse in the workbench (a drag, a hover, a drop: see
 * host/mouseActions.ts) and waits for it to be done; a hover answers its text.
 */
export async function mouse(request: WithoutDone<MouseRequest>): Promise<MouseOutcome> {
  const done = join(tmpdir(), `satchel-mouse-${process.pid}-${Date.now()}.json`);
  console.log(`[[mouse:${JSON.stringify({ ...request, done })}]]`);
  const outcome = await until(`the runner's ${request.action}`, () => existsSync(done) && (JSON.parse(readFileSync(done, 'utf8')) as MouseOutcome), 30_000);
  rmSync(done, { force: true });
  if (outcome.error) throw new Error(`The ${request.action} failed: ${outcome.error}`);
  return outcome;
}

/** The path of a screenshot the runner takes itself (with a hover open), or none without SATCHEL_SCREENSHOT_DIR. */
export function screenshotPath(name: string): string | undefined {
  const dir = process.env.SATCHEL_SCREENSHOT_DIR;
  return dir ? join(dir, `${name}.png`) : undefined;
}
