/** Connect an Agent… and Disconnect an Agent…: Satchel's MCP entry in other agents' config files. */
import { mcpUrl } from '../agents/mcpDefinitions.ts';
import type { ConnectRequest } from '../agents/agentConnections.ts';
import type { CommandMap, Services } from './services.ts';

export function connectCommands(s: Services): CommandMap {
  return {
    // The same address VS Code's own agent mode is given (mcpDefinitions.ts), on the current host.
    'satchel.agents.connect': async (request?: ConnectRequest) => {
      const url = s.server.connection?.url;
      if (url === undefined) throw new Error('Satchel has no server yet: its MCP address is not known.');
      return s.agentConnections.connect(mcpUrl(url), request);
    },
    'satchel.agents.disconnect': async (request?: ConnectRequest) => s.agentConnections.disconnect(request),
  };
}
