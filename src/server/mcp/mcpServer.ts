/** The MCP server Satchel offers agents: its tools and resources over one core. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Satchel } from '../../core/satchel.ts';
import type { Author } from '../../core/history/authors.ts';
import { SATCHEL_VERSION } from '../version.ts';
import { registerSnippetTools } from './snippetTools.ts';
import { registerConversationTools } from './conversationTools.ts';
import { registerSnippetResources } from './resources.ts';

const INSTRUCTIONS =
  "Satchel is the user's local snippet store, shared by their editor and every agent on this machine; nothing leaves the machine. " +
  'Search it (search_snippets) before writing code the user may already have, read a hit in full with get_snippet, and save ' +
  'reusable code the user wants to keep with save_snippet (check_snippet_saved first avoids duplicates). Fix, rename or retag a ' +
  'snippet with update_snippet and remove one with delete_snippet, each with the revision you last read (expected_revision); ' +
  'the user sees and can revert every change an agent makes.';

/**
 * A server with every tool and resource registered; cheap to build (registration only stores
 * handlers). `author`: the MCP client the request came from, whose writes it makes.
 */
export function createMcpServer(core: Satchel, author: Author): McpServer {
  const server = new McpServer({ name: 'satchel', title: 'Satchel', version: SATCHEL_VERSION }, { instructions: INSTRUCTIONS });
  registerSnippetTools(server, core, author);
  registerConversationTools(server, core);
  registerSnippetResources(server, core);
  return server;
}
