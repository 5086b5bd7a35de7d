/**
 * The Assets view's "Memories" node: the notes agents saved (create_pieces_memory, save_memory),
 * listed apart from the code snippets. Each memory's cited files are checked by the host when the
 * list is read (`GET /satchel/memories`): read again when the library changes, and when the node
 * is opened after a while, so a memory whose files changed or went shows "may be stale".
 */
import * as vscode from 'vscode';
import type { MemoryView } from '../../client/memories.ts';
import { Owner, toDisposable } from '../../core/lifecycle.ts';
import { escapeMarkdown } from '../../core/markdown.ts';
import type { Connection, ServerController } from '../serverController.ts';
import type { Log } from '../log.ts';

/** Changes arriving together (an import, an agent's burst) are read as one list. */
const RELOAD_DELAY_MS = 300;
/** Opening the node reads the list again when it is older than this (files change without the library knowing). */
const FRESH_MS = 5_000;

export class MemoriesSection extends Owner {
  private readonly log: Log;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** Fires after the list was read (the view redraws; tests wait on it). */
  readonly onDidChange = this._onDidChange.event;
  private connection: Connection | undefined;
  private list = new Map<string, MemoryView>();
  private loadedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;

  constructor(server: ServerController, log: Log) {
    super();
    this.log = log;
    this._register(toDisposable(() => clearTimeout(this.timer)));
    this._register(server.onDidChangeConnection((connection) => this.connect(connection)));
    this.connect(server.connection);
  }

  /** Whether an asset is a memory (as of the last read). */
  has(id: string): boolean {
    return this.list.has(id);
  }

  memory(id: string): MemoryView | undefined {
    return this.list.get(id);
  }

  /** Newest first. */
  get memories(): readonly MemoryView[] {
    return [...this.list.values()];
  }

  get count(): number {
    return this.list.size;
  }

  /** Reads the list soon (the library changed). */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), RELOAD_DELAY_MS);
  }

  /** Reads the list again if it is older than a few seconds (the node was opened). */
  refreshIfOld(): void {
    if (Date.now() - this.loadedAt > FRESH_MS) this.schedule();
  }

  /** Reads the list now; one read at a time. */
  reload(): Promise<void> {
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private connect(connection: Connection | undefined): void {
    this.connection = connection;
    this.list = new Map();
    this._onDidChange.fire();
    if (connection) void this.reload();
  }

  private async read(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    try {
      const { memories } = await connection.client.memories.list();
      if (connection !== this.connection) return;
      this.list = new Map(memories.map((memory) => [memory.id, memory]));
      this.loadedAt = Date.now();
      this._onDidChange.fire();
    } catch (error) {
      this.log.warn(`Could not list memories: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A memory's hover: its opening, its project and files (those that changed since marked), its links. */
export function memoryTooltip(memory: MemoryView): vscode.MarkdownString {
  const lines = [`**${escapeMarkdown(memory.title)}**`];
  if (memory.stale) lines.push('', `$(warning) This memory ${escapeMarkdown(memory.staleNote ?? 'may be stale')}.`);
  if (memory.project) lines.push('', `Project: \`${memory.project}\``);
  if (memory.files.length > 0) {
    lines.push('', 'Files:');
    for (const file of memory.files) lines.push(`- \`${file.path}\`${file.state === 'unchanged' ? '' : ` — ${file.state}`}`);
  }
  if (memory.links.length > 0) lines.push('', 'Links:', ...memory.links.map((link) => `- ${escapeMarkdown(link)}`));
  lines.push('', escapeMarkdown(memory.text));
  const tooltip = new vscode.MarkdownString(lines.join('\n'), true);
  return tooltip;
}
