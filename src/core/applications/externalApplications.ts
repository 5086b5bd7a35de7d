/**
 * Editors, IDEs and browsers installed on this machine, found the cheap way: executables on PATH and
 * the usual install locations of each platform, with a version read from a metadata file when one
 * sits next to the install (never by running the program). The file system is reached through a
 * `Probe`, so tests describe a machine instead of depending on the one they run on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { homedir } from 'node:os';

export interface Probe {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  exists(path: string): boolean;
  /** Entries of a directory ([] when it cannot be read). */
  list(path: string): string[];
  /** A small text file, or undefined when it cannot be read. */
  read(path: string): string | undefined;
}

export function systemProbe(): Probe {
  return {
    platform: process.platform,
    env: process.env,
    home: homedir(),
    exists: (path) => existsSync(path),
    list: (path) => {
      try {
        return readdirSync(path);
      } catch {
        return [];
      }
    },
    read: (path) => {
      try {
        return statSync(path).size > 1_000_000 ? undefined : readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** Where an installation keeps a readable version (relative to the install directory). */
type VersionSource = { readonly json: string; readonly key: string } | { readonly plist: string };

interface Location {
  /** Path segments; `~` is the home directory, `%NAME%` an environment variable, `*` any one entry. */
  readonly path: string;
  readonly version?: VersionSource;
}

export interface Integration {
  readonly name: string;
  /** Executable names looked up on PATH (without extension; `.exe`/`.cmd` are tried on Windows). */
  readonly commands: readonly string[];
  readonly locations: Partial<Record<'darwin' | 'linux' | 'win32', readonly Location[]>>;
}

const VSCODE_PACKAGE = { json: 'resources/app/package.json', key: 'version' } as const;
const MAC_PLIST = { plist: 'Contents/Info.plist' } as const;
const JETBRAINS_INFO = { json: 'product-info.json', key: 'version' } as const;

function jetbrains(name: string, command: string, macApp: string, folder: string): Integration {
  return {
    name,
    commands: [command],
    locations: {
      darwin: [{ path: `/Applications/${macApp}.app`, version: MAC_PLIST }, { path: `~/Applications/${macApp}.app`, version: MAC_PLIST }],
      linux: [
        { path: `/opt/${folder}`, version: JETBRAINS_INFO },
        { path: `/opt/${folder}-*`, version: JETBRAINS_INFO },
        { path: `~/.local/share/JetBrains/Toolbox/apps/${folder}`, version: JETBRAINS_INFO },
        { path: `/snap/${folder}/current`, version: JETBRAINS_INFO },
      ],
      win32: [{ path: `%ProgramFiles%/JetBrains/${macApp}*`, version: JETBRAINS_INFO }],
    },
  };
}

/** The integrations Satchel knows of (what `applicationsExternalRelated` lists, installed or not). */
export const knownIntegrations: readonly Integration[] = [
  {
    name: 'Visual Studio Code',
    commands: ['code'],
    locations: {
      darwin: [{ path: '/Applications/Visual Studio Code.app', version: MAC_PLIST }],
      linux: [
        { path: '/usr/share/code', version: VSCODE_PACKAGE },
        { path: '/snap/code/current/usr/share/code', version: VSCODE_PACKAGE },
        { path: '/opt/visual-studio-code', version: VSCODE_PACKAGE },
      ],
      win32: [
        { path: '%LOCALAPPDATA%/Programs/Microsoft VS Code', version: VSCODE_PACKAGE },
        { path: '%ProgramFiles%/Microsoft VS Code', version: VSCODE_PACKAGE },
      ],
    },
  },
  {
    name: 'Visual Studio Code - Insiders',
    commands: ['code-insiders'],
    locations: {
      darwin: [{ path: '/Applications/Visual Studio Code - Insiders.app', version: MAC_PLIST }],
      linux: [{ path: '/usr/share/code-insiders', version: VSCODE_PACKAGE }],
      win32: [{ path: '%LOCALAPPDATA%/Programs/Microsoft VS Code Insiders', version: VSCODE_PACKAGE }],
    },
  },
  {
    name: 'VSCodium',
    commands: ['codium'],
    locations: {
      darwin: [{ path: '/Applications/VSCodium.app', version: MAC_PLIST }],
      linux: [{ path: '/usr/share/codium', version: VSCODE_PACKAGE }],
      win32: [{ path: '%LOCALAPPDATA%/Programs/VSCodium', version: VSCODE_PACKAGE }],
    },
  },
  {
    name: 'Cursor',
    commands: ['cursor'],
    locations: {
      darwin: [{ path: '/Applications/Cursor.app', version: MAC_PLIST }],
      linux: [{ path: '/opt/Cursor', version: VSCODE_PACKAGE }, { path: '/usr/share/cursor', version: VSCODE_PACKAGE }],
      win32: [{ path: '%LOCALAPPDATA%/Programs/cursor', version: VSCODE_PACKAGE }],
    },
  },
  {
    name: 'Windsurf',
    commands: ['windsurf'],
    locations: {
      darwin: [{ path: '/Applications/Windsurf.app', version: MAC_PLIST }],
      linux: [{ path: '/usr/share/windsurf', version: VSCODE_PACKAGE }],
      win32: [{ path: '%LOCALAPPDATA%/Programs/Windsurf', version: VSCODE_PACKAGE }],
    },
  },
  jetbrains('IntelliJ IDEA', 'idea', 'IntelliJ IDEA', 'idea'),
  jetbrains('PyCharm', 'pycharm', 'PyCharm', 'pycharm'),
  jetbrains('WebStorm', 'webstorm', 'WebStorm', 'webstorm'),
  jetbrains('GoLand', 'goland', 'GoLand', 'goland'),
  jetbrains('CLion', 'clion', 'CLion', 'clion'),
  jetbrains('Rider', 'rider', 'Rider', 'rider'),
  jetbrains('PhpStorm', 'phpstorm', 'PhpStorm', 'phpstorm'),
  jetbrains('RubyMine', 'rubymine', 'RubyMine', 'rubymine'),
  jetbrains('Android Studio', 'studio', 'Android Studio', 'android-studio'),
  {
    name: 'Sublime Text',
    commands: ['subl', 'sublime_text'],
    locations: {
      darwin: [{ path: '/Applications/Sublime Text.app', version: MAC_PLIST }],
      linux: [{ path: '/opt/sublime_text' }],
      win32: [{ path: '%ProgramFiles%/Sublime Text' }],
    },
  },
  { name: 'Vim', commands: ['vim', 'gvim'], locations: { darwin: [{ path: '/Applications/MacVim.app', version: MAC_PLIST }], win32: [{ path: '%ProgramFiles%/Vim' }] } },
  { name: 'Neovim', commands: ['nvim'], locations: { win32: [{ path: '%ProgramFiles%/Neovim' }] } },
  { name: 'Emacs', commands: ['emacs'], locations: { darwin: [{ path: '/Applications/Emacs.app', version: MAC_PLIST }] } },
  { name: 'Zed', commands: ['zed', 'zeditor'], locations: { darwin: [{ path: '/Applications/Zed.app', version: MAC_PLIST }], linux: [{ path: '~/.local/zed.app' }] } },
  {
    name: 'Eclipse',
    commands: ['eclipse'],
    locations: { darwin: [{ path: '/Applications/Eclipse.app', version: MAC_PLIST }], linux: [{ path: '/opt/eclipse' }], win32: [{ path: '%USERPROFILE%/eclipse' }] },
  },
  { name: 'NetBeans', commands: ['netbeans'], locations: { darwin: [{ path: '/Applications/Apache NetBeans.app', version: MAC_PLIST }], linux: [{ path: '/opt/netbeans' }] } },
  { name: 'Xcode', commands: [], locations: { darwin: [{ path: '/Applications/Xcode.app', version: MAC_PLIST }] } },
  { name: 'Visual Studio', commands: ['devenv'], locations: { win32: [{ path: '%ProgramFiles%/Microsoft Visual Studio' }] } },
  { name: 'Notepad++', commands: ['notepad++'], locations: { win32: [{ path: '%ProgramFiles%/Notepad++' }] } },
  { name: 'Azure Data Studio', commands: ['azuredatastudio'], locations: { darwin: [{ path: '/Applications/Azure Data Studio.app', version: MAC_PLIST }] } },
  { name: 'JupyterLab', commands: ['jupyter-lab', 'jupyter'], locations: {} },
  { name: 'RStudio', commands: ['rstudio'], locations: { darwin: [{ path: '/Applications/RStudio.app', version: MAC_PLIST }], linux: [{ path: '/usr/lib/rstudio' }] } },
  {
    name: 'Obsidian',
    commands: ['obsidian'],
    locations: {
      darwin: [{ path: '/Applications/Obsidian.app', version: MAC_PLIST }],
      linux: [{ path: '/opt/Obsidian' }, { path: '/snap/obsidian/current' }, { path: '/var/lib/flatpak/app/md.obsidian.Obsidian' }],
      win32: [{ path: '%LOCALAPPDATA%/Obsidian' }],
    },
  },
  {
    name: 'Google Chrome',
    commands: ['google-chrome', 'google-chrome-stable', 'chrome'],
    locations: {
      darwin: [{ path: '/Applications/Google Chrome.app', version: MAC_PLIST }],
      linux: [{ path: '/opt/google/chrome' }],
      win32: [{ path: '%ProgramFiles%/Google/Chrome/Application' }],
    },
  },
  { name: 'Chromium', commands: ['chromium', 'chromium-browser'], locations: { darwin: [{ path: '/Applications/Chromium.app', version: MAC_PLIST }] } },
  {
    name: 'Firefox',
    commands: ['firefox'],
    locations: {
      darwin: [{ path: '/Applications/Firefox.app', version: MAC_PLIST }],
      linux: [{ path: '/usr/lib/firefox' }, { path: '/snap/firefox/current' }],
      win32: [{ path: '%ProgramFiles%/Mozilla Firefox' }],
    },
  },
  {
    name: 'Microsoft Edge',
    commands: ['microsoft-edge', 'microsoft-edge-stable', 'msedge'],
    locations: {
      darwin: [{ path: '/Applications/Microsoft Edge.app', version: MAC_PLIST }],
      linux: [{ path: '/opt/microsoft/msedge' }],
      win32: [{ path: '%ProgramFiles(x86)%/Microsoft/Edge/Application' }],
    },
  },
  {
    name: 'Brave',
    commands: ['brave-browser', 'brave'],
    locations: { darwin: [{ path: '/Applications/Brave Browser.app', version: MAC_PLIST }], linux: [{ path: '/opt/brave.com/brave' }] },
  },
  { name: 'Opera', commands: ['opera'], locations: { darwin: [{ path: '/Applications/Opera.app', version: MAC_PLIST }], linux: [{ path: '/usr/lib/x86_64-linux-gnu/opera' }] } },
  { name: 'Safari', commands: [], locations: { darwin: [{ path: '/Applications/Safari.app', version: MAC_PLIST }] } },
  { name: 'Slack', commands: ['slack'], locations: { darwin: [{ path: '/Applications/Slack.app', version: MAC_PLIST }], linux: [{ path: '/usr/lib/slack' }] } },
  { name: 'Microsoft Teams', commands: ['teams'], locations: { darwin: [{ path: '/Applications/Microsoft Teams.app', version: MAC_PLIST }] } },
  { name: 'GitHub Desktop', commands: ['github-desktop'], locations: { darwin: [{ path: '/Applications/GitHub Desktop.app', version: MAC_PLIST }] } },
  { name: 'Raycast', commands: [], locations: { darwin: [{ path: '/Applications/Raycast.app', version: MAC_PLIST }] } },
  { name: 'Alfred', commands: [], locations: { darwin: [{ path: '/Applications/Alfred 5.app', version: MAC_PLIST }] } },
  { name: 'Notion', commands: [], locations: { darwin: [{ path: '/Applications/Notion.app', version: MAC_PLIST }], win32: [{ path: '%LOCALAPPDATA%/Programs/Notion' }] } },
];

export interface Detected {
  readonly name: string;
  readonly version?: string;
}

/** The known integrations installed on the machine `probe` describes, in catalogue order. */
export function detectInstalled(probe: Probe, catalogue: readonly Integration[] = knownIntegrations): Detected[] {
  const pathDirs = (probe.env.PATH ?? probe.env.Path ?? '').split(probe.platform === 'win32' ? ';' : delimiter).filter(Boolean);
  const found: Detected[] = [];
  for (const integration of catalogue) {
    const platform = probe.platform === 'darwin' || probe.platform === 'win32' ? probe.platform : 'linux';
    let installed = false;
    let version: string | undefined;
    for (const location of integration.locations[platform] ?? []) {
      for (const dir of expand(location.path, probe)) {
        installed = true;
        version ??= location.version ? readVersion(probe, dir, location.version) : undefined;
      }
    }
    if (!installed) installed = integration.commands.some((command) => onPath(probe, pathDirs, command));
    if (installed) found.push(version ? { name: integration.name, version } : { name: integration.name });
  }
  return found;
}

function onPath(probe: Probe, dirs: readonly string[], command: string): boolean {
  const names = probe.platform === 'win32' ? [`${command}.exe`, `${command}.cmd`, `${command}.bat`] : [command];
  return dirs.some((dir) => names.some((name) => probe.exists(join(dir, name))));
}

/** Existing paths matching a location pattern. */
function expand(pattern: string, probe: Probe): string[] {
  let path = pattern.replace(/^~(?=\/|$)/, probe.home);
  let missing = false;
  path = path.replace(/%([^%]+)%/g, (_, name: string) => {
    const value = probe.env[name];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  if (missing) return [];
  let candidates = [''];
  for (const segment of path.split('/')) {
    if (segment === '' && candidates.length === 1 && candidates[0] === '') {
      candidates = ['/'];
      continue;
    }
    if (!segment.includes('*')) {
      candidates = candidates.map((base) => (base === '' ? segment : join(base, segment)));
      continue;
    }
    const matcher = new RegExp(`^${segment.split('*').map(escapeRegExp).join('.*')}$`);
    candidates = candidates.flatMap((base) => probe.list(base).filter((entry) => matcher.test(entry)).map((entry) => join(base, entry)));
  }
  return candidates.filter((candidate) => probe.exists(candidate));
}

function readVersion(probe: Probe, dir: string, source: VersionSource): string | undefined {
  if ('json' in source) {
    const text = probe.read(join(dir, source.json));
    if (!text) return undefined;
    try {
      const value = (JSON.parse(text) as Record<string, unknown>)[source.key];
      return typeof value === 'string' && value ? value : undefined;
    } catch {
      return undefined;
    }
  }
  const plist = probe.read(join(dir, source.plist));
  return plist?.match(/<key>CFBundleShortVersionString<\/key>\s*<string>([^<]+)<\/string>/)?.[1];
}

function escapeRegExp(value: string): string {
  return value.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
