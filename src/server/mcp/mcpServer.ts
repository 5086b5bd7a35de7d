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
import { registerCreatePiecesMemory, registerSatchelMemoryTools } from './pieces/memoryTools.ts';
import { registerAskLtm } from './pieces/askLtm.ts';
import { registerMaterialTools } from './pieces/materialTools.ts';
import { registerUnrecordedTools } from './pieces/unrecordedTools.ts';

/**
 * Which tool set a server offers: Satchel's own (on /mcp), or those and Pieces' 39 tools by their
 * names and parameters (on the paths Pieces MCP configs point at). Agents on /mcp are not shown the
 * Pieces set: half of it answers kinds Satchel does not record, and every tool's description costs
 * an agent's context on each request (docs/mcp.md).
 */
export type McpFlavour = 'satchel' | 'pieces';

const INSTRUCTIONS =
  "Satchel is the user's local snippet store, shared by their editor and every agent on this machine; nothing leaves the machine. " +
  'Search it (search_snippets) before writing code the user may already have, read a hit in full with get_snippet, and save ' +
  'reusable code the user wants to keep with save_snippet (check_snippet_saved first avoids duplicates). Fix, rename or retag a ' +
  'snippet with update_snippet and remove one with delete_snippet, each with the revision you last read (expected_revision); ' +
  'the user sees and can revert every change an agent makes. Keep notes about the work (decisions, findings) with save_memory and ' +
  'find them again with recall_memories: a memory whose cited files changed since is reported as possibly stale.';

const PIECES_INSTRUCTIONS =
  "This is Satchel answering for Pieces: the user's memories, snippets and conversations on this machine. ask_pieces_ltm and " +
  'the *_full_text_search tools search them; create_pieces_memory saves a memory (checked against the files it cites when it is ' +
  'recalled). Satchel records no screen, audio, clipboard, people or windows: those tools answer empty. ' +
  'Satchel\'s own snippet tools (search_snippets, save_snippet…) are here too.';

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
export function createMcpServer(core: Satchel, author: Author | (() => Author), searches: ExchangeSlots, flavour: McpFlavour = 'satchel'): McpServer {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const pieces = flavour === 'pieces';
  const server = new McpServer(
    { name: 'satchel', title: 'Satchel', version: SATCHEL_VERSION },
    { instructions: pieces ? `${PIECES_INSTRUCTIONS} ${INSTRUCTIONS}` : INSTRUCTIONS, jsonSchemaValidator: sharedValidator },
  );
  const by = typeof author === 'function' ? author : () => author;
  registerSnippetTools(server, core, by, searches);
  registerConversationTools(server, core);
  registerSnippetResources(server, core);
  registerSatchelMemoryTools(server, core, by, searches);
  if (pieces) {
    registerAskLtm(server, core, searches);
    registerCreatePiecesMemory(server, core, by);
    registerMaterialTools(server, core, searches);
    registerUnrecordedTools(server);
  }
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

  /** A server not connected to anything, offering `flavour`'s tools, whose tools write as `author`. */
  take(author: Author, flavour: McpFlavour = 'satchel'): McpServer {
    const key = keyOf(author, flavour);
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i]!.key === key) return this.idle.splice(i, 1)[0]!.server;
    }
    return createMcpServer(this.core, author, this.searches, flavour);
  }

  /** Returns a server taken for `author` and `flavour` whose exchange ended cleanly (see the class comment); it must be closed. */
  keep(author: Author, server: McpServer, flavour: McpFlavour = 'satchel'): void {
    if (server.isConnected()) throw new Error('an MCP server is kept only once closed');
    this.idle.push({ key: keyOf(author, flavour), server });
    if (this.idle.length > KEPT) this.idle.shift();
  }

  /** Servers kept now (for tests). */
  get kept(): number {
    return this.idle.length;
  }
}

function keyOf(author: Author, flavour: McpFlavour): string {
  return `${flavour}\u0000${author.kind}\u0000${author.name}`;
}
