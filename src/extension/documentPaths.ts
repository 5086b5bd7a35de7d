/**
 * Where Satchel's read-only documents live, apart from VS Code (a path, not a Uri):
 * `/<key>/<version>/<name>.<ext>`, a snippet's revision (history/revisionPaths.ts) or one side of
 * an agent's change (views/agentChangeDiff.ts). The key and the version say which text it is; the
 * file name only gives VS Code the language and the tab its name.
 */
import { fileNameFor } from './languageNames.ts';

export function documentPath(key: string, version: string, name: string, language: string | undefined): string {
  return `/${encodeURIComponent(key)}/${encodeURIComponent(version)}/${fileNameFor(name || 'Untitled', language)}`;
}
