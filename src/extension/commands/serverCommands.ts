/** The status bar's menu and the server commands. */
import * as vscode from 'vscode';
import type { CommandMap, Services } from './services.ts';

export function serverCommands(s: Services): CommandMap {
  const { server, log } = s;
  const commands: CommandMap = {
    'satchel.server.copyUrl': async () => {
      const url = server.connection?.url;
      if (!url) throw new Error('Satchel has no server yet.');
      await vscode.env.clipboard.writeText(url);
      void vscode.window.setStatusBarMessage(`$(copy) Copied ${url}`, 3_000);
      return url;
    },
    'satchel.server.showLog': () => log.show(),
    'satchel.server.restart': async () => {
      log.info('Restarting the server');
      return server.restart(true);
    },
    'satchel.server.menu': async () => {
      const role = server.role;
      const title =
        role.kind === 'host' || role.kind === 'client' ? `Satchel ${role.kind} · ${role.url}` : `Satchel · ${role.kind}`;
      const choice = await vscode.window.showQuickPick(
        [
          { label: '$(copy) Copy Server URL', command: 'satchel.server.copyUrl' },
          { label: '$(plug) Connect an Agent…', command: 'satchel.agents.connect' },
          { label: '$(output) Show Log', command: 'satchel.server.showLog' },
          { label: '$(debug-restart) Restart Server', command: 'satchel.server.restart' },
        ],
        { title },
      );
      if (choice) await vscode.commands.executeCommand(choice.command);
    },
  };
  return commands;
}
