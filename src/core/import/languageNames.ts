/**
 * A language named the way another tool names it (a VS Code language id, a massCode/Ace mode, a
 * GitHub linguist name, a file extension), in Satchel's classification vocabulary.
 */
import type { ClassificationSpecific } from '../wire.ts';
import { supportedLanguages, specificFromFileName } from '../classify/languages.ts';

/** Names the tables below do not reach through a language's id, name or extensions. */
const ALIASES: Readonly<Record<string, ClassificationSpecific>> = {
  c_cpp: 'cpp',
  golang: 'go',
  plain_text: 'txt',
  plaintext: 'txt',
  text: 'txt',
  shell: 'sh',
  bash: 'sh',
  zsh: 'sh',
  console: 'sh',
  objectivec: 'mm',
  'objective-c': 'mm',
  jsonc: 'json',
  json5: 'json',
  makefile: 'hljs-makefile',
  docker: 'dockerfile',
  vb: 'vba',
  'c#': 'cs',
  'f#': 'fs',
};

const byName = new Map<string, ClassificationSpecific>();
for (const info of supportedLanguages) {
  for (const key of [info.specific, info.vscodeId, info.name, ...info.extensions]) {
    const lower = key.toLowerCase();
    if (!byName.has(lower)) byName.set(lower, info.specific);
  }
}
for (const [alias, specific] of Object.entries(ALIASES)) if (!byName.has(alias)) byName.set(alias, specific);

/** The language `name` means, or undefined when it names none Satchel knows. */
export function specificFromName(name: string | undefined | null): ClassificationSpecific | undefined {
  if (!name) return undefined;
  return byName.get(name.trim().toLowerCase());
}

export { specificFromFileName };
