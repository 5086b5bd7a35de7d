/**
 * Memories as the Pieces tools return them: Pieces keeps a memory as a workstream summary (a name,
 * times and a SUMMARY annotation), so that is the shape, with what Satchel adds: the project, the
 * files with their state now, the links, and `may_be_stale` with the note saying which files moved.
 */
import type { MemoryView } from '../../../core/memories/memories.ts';

/** Characters of a memory's note a recall returns (a search lists many; a snapshot reads one). */
export const RECALL_CHARS = 4_000;
export const SNAPSHOT_CHARS = 64 * 1024;

export function summaryObject(view: MemoryView): Record<string, unknown> {
  const truncated = view.text.length < view.chars;
  return {
    id: view.id,
    kind: 'memory',
    name: view.title,
    created: { value: view.created },
    updated: { value: view.updated },
    annotations: { iterable: [{ type: 'SUMMARY', text: view.text }] },
    ...(truncated ? { truncated: true, chars: view.chars } : {}),
    ...(view.project !== undefined ? { project: view.project } : {}),
    files: view.files.map((file) => ({ path: file.path, state: file.state, ...(file.commit !== undefined ? { commit: file.commit } : {}), ...(file.commitNow !== undefined ? { commit_now: file.commitNow } : {}) })),
    links: view.links,
    tags: view.tags,
    ...(view.client !== undefined ? { connected_client: view.client } : {}),
    may_be_stale: view.stale,
    ...(view.staleNote !== undefined ? { stale_note: `This memory ${view.staleNote}; check the files before relying on it.` } : {}),
  };
}
