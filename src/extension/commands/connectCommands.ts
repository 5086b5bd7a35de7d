/** Connect an Agent… and Disconnect an Agent…: Satchel's MCP entry in other agents' config files. */
import { mcpUrl } from '../../core/connect/agentTargets.ts';
import type { ConnectRequest } from '../agents/agentConnections.ts';
import type { CommandMap, Services } from './services.ts';

export function connectCommands(s: Services): CommandMap {
  return {
    'satchel.agents.connect': async (request?: ConnectRequest) => {
      const port = s.server.connection?.port;
      if (port === undefined) throw new Error('Satchel has no server yet: its MCP address is not known.');
      return s.agentConnections.connect(mcpUrl(port), request);
    },
    'satchel.agents.disconnect': async (request?: ConnectRequest) => s.agentConnections.disconnect(request),
  };
}
