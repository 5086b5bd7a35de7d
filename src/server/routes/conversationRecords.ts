import { empty, input, json, jsonStream, param, parse, queryString } from '../http.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import type { ChangeEvent } from '../../core/events.ts';
import { route, type RouteModule } from './deps.ts';
import { annotationType, conversationOperations as op } from '../../wire/conversations.ts';
import { writeOptions } from '../writeOptions.ts';

/** Annotations, anchors, ranges and workstream summaries: the records conversations associate with. */
export const conversationRecordRoutes: RouteModule = (router, { core, streams }) => {
  const records = core.conversations.records;

  // Identifier streams of anchors and ranges (the Python SDK opens both at start-up).
  for (const [kind, stream] of [['anchor', op.anchorStreamIdentifiers], ['range', op.rangeStreamIdentifiers]] as const) {
    const frames = registerSharedStream(
      streams,
      stream.path,
      {
        initial: () => ({ iterable: core.context.records.ids(kind).map((id) => ({ [kind]: { id } })) }),
        change: (change: ChangeEvent) =>
          change.kind === kind ? { iterable: [{ [kind]: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } : undefined,
      },
      core.context.onDidChange,
    );
    route(router, stream, (ctx) => jsonStream(ctx, frames.connect()));
  }

  route(router, op.annotations, (ctx) => {
    const filter = queryString(ctx, 'annotation_type_filter', 'annotationTypeFilter');
    json(ctx, records.annotations(filter === undefined ? undefined : parse(annotationType(), filter, 'annotation_type_filter')));
  });
  route(router, op.annotation, (ctx) => json(ctx, records.annotation(param(ctx, 'annotation'))));
  route(router, op.deleteAnnotation, (ctx) => {
    records.delete('annotation', param(ctx, 'annotation'), writeOptions(ctx));
    empty(ctx);
  });

  route(router, op.anchors, (ctx) => json(ctx, records.anchors()));
  route(router, op.createAnchor, (ctx) => json(ctx, records.createAnchor(input(ctx, op.createAnchor))));
  route(router, op.anchor, (ctx) => json(ctx, records.anchor(param(ctx, 'anchor'))));
  route(router, op.deleteAnchor, (ctx) => {
    records.delete('anchor', param(ctx, 'anchor'));
    empty(ctx);
  });

  route(router, op.ranges, (ctx) => json(ctx, records.ranges()));
  route(router, op.createRange, (ctx) => json(ctx, records.createRange(input(ctx, op.createRange))));
  route(router, op.range, (ctx) => json(ctx, records.range(param(ctx, 'range'))));
  route(router, op.deleteRange, (ctx) => {
    records.delete('range', param(ctx, 'range'));
    empty(ctx);
  });

  route(router, op.workstreamSummaries, (ctx) => json(ctx, records.workstreamSummaries()));
  route(router, op.createWorkstreamSummary, (ctx) =>
    json(ctx, records.createWorkstreamSummary(input(ctx, op.createWorkstreamSummary))),
  );
  route(router, op.workstreamSummary, (ctx) =>
    json(ctx, records.workstreamSummary(param(ctx, 'workstream_summary'))),
  );
  route(router, op.deleteWorkstreamSummary, (ctx) => {
    records.delete('workstream_summary', param(ctx, 'workstream_summary'));
    empty(ctx);
  });
};
