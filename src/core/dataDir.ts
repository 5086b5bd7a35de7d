import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The platform's per-user data directory for Satchel, shared by the CLI and the extension so both
 * serve one store (SATCHEL_DATA_DIR overrides it).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SATCHEL_DATA_DIR) return env.SATCHEL_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Satchel');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Satchel');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'satchel');
}
