import type { Application } from '../piecesTypes.ts';

/** Who made an asset when the seed does not say (Format.application is required on the wire). */
export const SATCHEL_APPLICATION: Application = {
  id: 'satchel-local',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: process.platform === 'darwin' ? 'MACOS' : process.platform === 'win32' ? 'WINDOWS' : 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

/** The one local user every record is attributed to. */
export const LOCAL_CREATOR = 'local-user';
