/** Language names and VS Code language ids, from the classifier's one language table. */
import type { ClassificationSpecific } from '../core/piecesTypes.ts';
import { languageOf, supportedLanguages } from '../core/classify/languages.ts';
import { safeFileName } from '../core/fileNames.ts';

/** VS Code language ids → the ClassificationSpecific value the server uses. */
const FROM_VSCODE = new Map<string, string>([
  ...supportedLanguages.map((info): [string, string] => [info.vscodeId, info.specific]),
  // JSON with comments is stored as JSON.
  ['jsonc', 'json'],
]);

export function languageName(specific: string | undefined): string {
  if (!specific) return 'Unclassified';
  return languageOf(specific as ClassificationSpecific)?.name ?? specific.toUpperCase();
}

/**
 * The language an editor's language id states, for a save or a suggestion. Plain text states
 * nothing (an untitled editor is plain text whatever it holds): undefined, so the host classifies
 * the text or the file name decides.
 */
export function fromVscodeLanguage(languageId: string): string | undefined {
  return languageId === 'plaintext' ? undefined : FROM_VSCODE.get(languageId);
}

/** All languages offered when reclassifying, as [specific, name]. */
export function knownLanguages(): [string, string][] {
  return supportedLanguages.map((info) => [info.specific, info.name]);
}

/** A file name whose extension lets VS Code pick the language and its icon. */
export function fileNameFor(name: string, specific: string | undefined): string {
  const safe = safeFileName(name, 'asset');
  if (!specific || specific === 'txt') return `${safe}.txt`;
  return specific === 'dockerfile' ? `${safe}.Dockerfile` : `${safe}.${specific}`;
}
