/**
 * Which MCP client a request comes from, so its writes name it ("saved by Claude Code"). The MCP
 * route is stateless (a server per POST), and a client names itself only in `initialize`: the
 * answer to it carries an `Mcp-Session-Id` that maps to the name, and clients send that id back on
 * every later request (the transport's rule for servers that give one). Nothing else rests on the
 * id: it is not checked, an unknown or forgotten one (a restarted host, more clients than are
 * remembered) just falls back to "MCP client", and no state is kept per session beyond the name.
 */
import { randomUUID } from 'node:crypto';
import { authorOf, type Author } from '../../core/history/authors.ts';
import { isRecord } from '../../core/plainObjects.ts';

/** Clients remembered at most (each entry is a name): the oldest are forgotten first. */
const REMEMBERED = 1024;

export const SESSION_HEADER = 'mcp-session-id';

export class McpClients {
  private readonly names = new Map<string, string>();

  /** The author of a request carrying `sessionId` (the header's value). */
  authorOf(sessionId: string | undefined): Author {
    const name = sessionId === undefined ? undefined : this.names.get(sessionId);
    if (name !== undefined && sessionId !== undefined) {
      // Recently used ids are the last forgotten.
      this.names.delete(sessionId);
      this.names.set(sessionId, name);
    }
    return authorOf('mcp', name);
  }

  /**
   * The client's name when `body` (a JSON-RPC message or batch) holds an `initialize` request, and
   * the session id to answer it with; undefined for any other request.
   */
  initialize(body: unknown): { sessionId: string; author: Author } | undefined {
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      if (!isRecord(message) || message.method !== 'initialize' || !isRecord(message.params)) continue;
      const info = message.params.clientInfo;
      const author = authorOf('mcp', isRecord(info) && typeof info.name === 'string' ? info.name : undefined);
      const sessionId = randomUUID();
      this.names.set(sessionId, author.name);
      if (this.names.size > REMEMBERED) this.names.delete(this.names.keys().next().value as string);
      return { sessionId, author };
    }
    return undefined;
  }
}
