/**
 * What a record made elsewhere brings besides its snippet (a Pieces library's, exactRecords.ts):
 * annotations other than its description (comments, summaries, documentation) and anchors (the
 * files and folders it belongs to), each stored under its own id and linked to the asset, inside
 * the caller's transaction. Put again, a record equal to the stored one writes nothing, so an
 * import run twice changes nothing; what the asset has besides (the user's own) stays.
 */
import type { StoreContext } from '../context.ts';
import type { StoredAnchor, StoredAnnotation } from '../conversations/records.ts';
import type * as W from '../piecesTypes.ts';
import { stampAt } from '../time.ts';

export interface ExactAnnotation {
  readonly id: string;
  readonly type: W.Annotation['type'];
  readonly text: string;
  /** ISO-8601, kept exactly as given. */
  readonly created: string;
  readonly updated: string;
}

export interface ExactAnchor {
  readonly id: string;
  readonly type: W.Anchor['type'];
  readonly fullpath: string;
  readonly name?: string | undefined;
  readonly platform?: string | undefined;
  /** The id of the anchor's point (the one path it names). */
  readonly pointId: string;
  readonly created: string;
  readonly updated: string;
}

export interface ExactAttachments {
  readonly annotations?: readonly ExactAnnotation[] | undefined;
  readonly anchors?: readonly ExactAnchor[] | undefined;
}

function storedAnnotation(annotation: ExactAnnotation): StoredAnnotation {
  return { id: annotation.id, type: annotation.type, text: annotation.text, created: stampAt(annotation.created), updated: stampAt(annotation.updated) };
}

function storedAnchor(anchor: ExactAnchor): StoredAnchor {
  return {
    id: anchor.id,
    type: anchor.type,
    fullpath: anchor.fullpath,
    pointId: anchor.pointId,
    created: stampAt(anchor.created),
    updated: stampAt(anchor.updated),
    ...(anchor.name !== undefined ? { name: anchor.name } : {}),
    ...(anchor.platform !== undefined ? { platform: anchor.platform } : {}),
  };
}

/** Stores the record's annotations and anchors and links each to the asset; whether anything changed. */
export function putAttachments(context: StoreContext, assetId: string, attachments: ExactAttachments): boolean {
  let changed = false;
  const asset = { kind: 'asset', id: assetId } as const;
  const put = <T>(kind: 'annotation' | 'anchor', id: string, wanted: T): void => {
    if (JSON.stringify(context.records.get<T>(kind, id)) !== JSON.stringify(wanted)) {
      context.records.put(kind, id, wanted);
      context.publish({ kind, id });
      changed = true;
    }
    if (context.links.link({ kind, id }, asset)) {
      context.publish({ kind, id });
      changed = true;
    }
  };
  for (const annotation of attachments.annotations ?? []) put('annotation', annotation.id, storedAnnotation(annotation));
  for (const anchor of attachments.anchors ?? []) put('anchor', anchor.id, storedAnchor(anchor));
  return changed;
}
