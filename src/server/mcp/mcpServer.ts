/** The MCP server Satchel offers agents: its tools and resources over one core. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Satchel } from '../../core/satchel.ts';
import type { Author } from '../../core/history/authors.ts';
import { SATCHEL_VERSION } from '../version.ts';
import { registerSnippetTools } from './snippetTools.ts';
import type { ExchangeSlots } from './exchangeSlots.ts';
import { registerConversationTools } from './conversationTools.ts';
import { registerSnippetResources } from './resources.ts';

const INSTRUCTIONS =
  "Satchel is the user's local snippet store, shared by their editor and every agent on this machine; nothing leaves the machine. " +
  'Search it (search_snippets) before writing code the user may already have, read a hit in full with get_snippet, and save ' +
  'reusable code the user wants to keep with save_snippet (check_snippet_saved first avoids duplicates). Fix, rename or retag a ' +
  'snippet with update_snippet and remove one with delete_snippet, each with the revision you last read (expected_revision); ' +
  'the user sees and can revert every change an agent makes.';

/**
 * The JSON Schema validator every server shares. The SDK builds an Ajv instance per server by
 * default (0.75 ms each, a third of building a server) to check what a client answers to
 * elicitation, which Satchel never asks for.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * A server with every tool and resource registered. `author`: the MCP client the request came
 * from, whose writes it makes. Building one costs about 1.4 ms (the tools' zod schemas and their
 * registration), several times what an exchange with it costs: McpServers lends built ones.
 */
export function createMcpServer(core: Satchel, author: Author, searches: ExchangeSlots): McpServer {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(
    { name: 'satchel', title: 'Satchel', version: SATCHEL_VERSION },
    { instructions: INSTRUCTIONS, jsonSchemaValidator: sharedValidator },
  );
  registerSnippetTools(server, core, author, searches);
  registerConversationTools(server, core);
  registerSnippetResources(server, core);
  return server;
}

/** Built servers kept between exchanges; a few per client is all concurrent calls need. */
const KEPT = 32;

/**
 * Servers lent to one exchange at a time and kept between exchanges, so a call costs its exchange
 * and not a server's construction (200 concurrent calls held health 0.6–1.2 s with a server built
 * per call). A server's tools write as one author, so servers are kept per author.
 *
 * What makes reuse safe: a kept server is closed (its transport and every handler of the exchange
 * are done) and has seen no `initialize` (the one request whose answer a server remembers: the
 * client's capabilities and version). Anything else about an exchange (its transport, its request
 * ids, its abort controllers) is dropped by the close. A server whose exchange timed out may still
 * have a handler running, and is dropped rather than kept.
 */
export class McpServers {
  private readonly core: Satchel;
  /** The line of search work the HTTP search routes share (searchSlots.ts). */
  private readonly searches: ExchangeSlots;
  /** Closed servers, the least recently returned first. */
  private readonly idle: Array<{ readonly key: string; readonly server: McpServer }> = [];

  constructor(core: Satchel, searches: ExchangeSlots) {
    this.core = core;
    this.searches = searches;
  }

  /** A server not connected to anything, whose tools write as `author`. */
  take(author: Author): McpServer {
    const key = keyOf(author);
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i]!.key === key) return this.idle.splice(i, 1)[0]!.server;
    }
    return createMcpServer(this.core, author, this.searches);
  }

  /** Returns a server taken for `author` whose exchange ended cleanly (see the class comment); it must be closed. */
  keep(author: Author, server: McpServer): void {
    if (server.isConnected()) throw new Error('an MCP server is kept only once closed');
    this.idle.push({ key: keyOf(author), server });
    if (this.idle.length > KEPT) this.idle.shift();
  }

  /** Servers kept now (for tests). */
  get kept(): number {
    return this.idle.length;
  }
}

function keyOf(author: Author): string {
  return `${author.kind}\u0000${author.name}`;
}
