/**
 * GitHub Gist JSON as the REST API returns it: one gist (GET /gists/{id}) or a list (GET /gists).
 * Each file of a gist becomes an asset named for the file, with the gist's description. The list
 * endpoint leaves file contents out, and the single-gist one cuts files over 1 MB (`truncated`):
 * such files fail with that reason rather than importing a partial text.
 */
import { isRecord, SnippetCollector, stringOr, type ParsedFile } from './types.ts';
import { specificFromFile } from '../classify/hints.ts';
import { specificFromLanguageName } from '../classify/languages.ts';

function isGist(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.files);
}

export function isGistJson(value: unknown): boolean {
  return isGist(value) || (Array.isArray(value) && value.length > 0 && value.every(isGist));
}

export function parseGists(file: string, value: unknown): ParsedFile {
  const collector = new SnippetCollector(file);
  const gists = Array.isArray(value) ? value : [value];
  gists.forEach((gist, index) => {
    if (!isGist(gist)) return collector.fail(`gist ${index + 1}`, 'not a gist (an object with files)');
    const gistName = typeof gist.id === 'string' ? `gist ${gist.id}` : `gist ${index + 1}`;
    const description = stringOr(gist.description);
    for (const [key, entry] of Object.entries(gist.files as Record<string, unknown>)) {
      const item = `${gistName} › ${key}`;
      if (!isRecord(entry)) {
        collector.fail(item, 'not a gist file');
        continue;
      }
      if (typeof entry.content !== 'string') {
        collector.fail(item, 'the file has no content (GET /gists lists files without it; save each gist from GET /gists/{id})');
        continue;
      }
      if (entry.truncated === true) {
        collector.fail(item, 'GitHub cut this file at 1 MB (truncated); download its raw_url and import that instead');
        continue;
      }
      const fileName = stringOr(entry.filename, key);
      collector.add(item, {
        name: fileName,
        text: entry.content,
        language: specificFromLanguageName(stringOr(entry.language)) ?? specificFromFile(fileName, entry.content),
        tags: [],
        description,
      });
    }
  });
  return collector.result('gist');
}
