/**
 * Who made a write: every change to an asset names the application that made it, so its history
 * can say "renamed by Claude Code (MCP)" and an agent's changes can be listed apart. Core takes the
 * author as a plain value on every write; the edges (HTTP routes, MCP tools, the import, the
 * connector) decide it from what the caller sent (src/server/authors.ts).
 */

/**
 * The doors a write comes through:
 *   vscode      Satchel's own VS Code extension (its commands, views and editor)
 *   agent       an AI agent working inside VS Code (language-model tools, `@satchel`)
 *   mcp         an MCP client, by the name it gave in `initialize`
 *   connector   a connector's save (the copy connector of Satchel or of a Pieces application)
 *   import      an import of snippet files
 *   sync        a sync with another machine
 *   pieces-app  any other client of the Pieces OS interface (a Pieces application, the Pieces CLI, an SDK)
 *   cli         Satchel's own command line
 *   unknown     a state recorded before authors were kept
 */
export const AUTHOR_KINDS = ['vscode', 'agent', 'mcp', 'connector', 'import', 'sync', 'pieces-app', 'cli', 'unknown'] as const;

export type AuthorKind = (typeof AUTHOR_KINDS)[number];

export interface Author {
  readonly kind: AuthorKind;
  /** The application's own name ("Claude Code", "JETBRAINS", "python.json"); never empty. */
  readonly name: string;
}

/** Longest author name kept (names come from clients: an MCP clientInfo, a User-Agent). */
export const AUTHOR_NAME_CHARS = 128;

const DEFAULT_NAMES: Record<AuthorKind, string> = {
  vscode: 'VS Code',
  agent: 'Agent in VS Code',
  mcp: 'MCP client',
  connector: 'Connector',
  import: 'Import',
  sync: 'Sync',
  'pieces-app': 'Pieces client',
  cli: 'Satchel CLI',
  unknown: 'Unknown',
};

export function isAuthorKind(value: string): value is AuthorKind {
  return (AUTHOR_KINDS as readonly string[]).includes(value);
}

/** An author with its name cleaned up (control characters dropped, trimmed, cut) or the kind's default name. */
export function authorOf(kind: AuthorKind, name?: string | undefined): Author {
  const cleaned = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, AUTHOR_NAME_CHARS);
  return { kind, name: cleaned || DEFAULT_NAMES[kind] };
}

/** The author of states recorded before Satchel kept revisions (the first revision of an older asset). */
export const BEFORE_HISTORY: Author = { kind: 'unknown', name: 'Before history was kept' };

/** Whether an AI agent made the write (an MCP client or an agent inside VS Code): the "Agent changes" list. */
export function isAgent(author: Author): boolean {
  return author.kind === 'mcp' || author.kind === 'agent';
}

/** How a write is made: by whom, and on which revision the writer based it. */
export interface WriteOptions {
  readonly author: Author;
  /**
   * The revision the writer last read. When given, the write is refused with a
   * RevisionConflictError if the asset's current revision is another one (checked inside the
   * write's transaction, so two writers basing their change on the same revision cannot both win).
   */
  readonly expectedRevision?: string | undefined;
  /**
   * The agent change (a proposal waiting for review) this write applies, now the user accepted it:
   * the write is not listed among the agent changes, and the proposal is consumed in the same
   * transaction (src/core/agents). Set only by the agent changes area.
   */
  readonly acceptedChange?: string | undefined;
}
