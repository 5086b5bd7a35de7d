import { empty, input, json, jsonStream, param, parse, queryString } from '../http.ts';
import { registerSharedStream } from '../sharedFrames.ts';
import type { ChangeEvent } from '../../core/events.ts';
import type { RouteModule } from './deps.ts';
import { annotationType, conversationOperations as op } from '../../wire/conversations.ts';
import { writeOptions } from '../writeOptions.ts';

/** Annotations, anchors, ranges and workstream summaries: the records conversations associate with. */
export const conversationRecordRoutes: RouteModule = (router, { core, streams }) => {
  const records = core.conversations.records;

  // Identifier streams of anchors and ranges (the Python SDK opens both at start-up).
  for (const kind of ['anchor', 'range'] as const) {
    const path = `/${kind}s/stream/identifiers`;
    const frames = registerSharedStream(
      streams,
      path,
      {
        initial: () => ({ iterable: core.context.records.ids(kind).map((id) => ({ [kind]: { id } })) }),
        change: (change: ChangeEvent) =>
          change.kind === kind ? { iterable: [{ [kind]: { id: change.id }, ...(change.deleted ? { deleted: true } : {}) }] } : undefined,
      },
      core.context.onDidChange,
    );
    router.get(path, (ctx) => jsonStream(ctx, frames.connect()));
  }

  router.get('/annotations', (ctx) => {
    const filter = queryString(ctx, 'annotation_type_filter', 'annotationTypeFilter');
    json(ctx, records.annotations(filter === undefined ? undefined : parse(annotationType, filter, 'annotation_type_filter')));
  });
  router.get('/annotation/:annotation', (ctx) => json(ctx, records.annotation(param(ctx, 'annotation'))));
  router.post('/annotations/:annotation/delete', (ctx) => {
    records.delete('annotation', param(ctx, 'annotation'), writeOptions(ctx));
    empty(ctx);
  });

  router.get('/anchors', (ctx) => json(ctx, records.anchors()));
  router.post(op.createAnchor.path, (ctx) => json(ctx, records.createAnchor(input(ctx, op.createAnchor))));
  router.get('/anchor/:anchor', (ctx) => json(ctx, records.anchor(param(ctx, 'anchor'))));
  router.post('/anchors/:anchor/delete', (ctx) => {
    records.delete('anchor', param(ctx, 'anchor'));
    empty(ctx);
  });

  router.get('/ranges', (ctx) => json(ctx, records.ranges()));
  router.post(op.createRange.path, (ctx) => json(ctx, records.createRange(input(ctx, op.createRange))));
  router.get('/range/:range', (ctx) => json(ctx, records.range(param(ctx, 'range'))));
  router.post('/ranges/:range/delete', (ctx) => {
    records.delete('range', param(ctx, 'range'));
    empty(ctx);
  });

  router.get('/workstream_summaries', (ctx) => json(ctx, records.workstreamSummaries()));
  router.post(op.createWorkstreamSummary.path, (ctx) =>
    json(ctx, records.createWorkstreamSummary(input(ctx, op.createWorkstreamSummary))),
  );
  router.get('/workstream_summary/:workstream_summary', (ctx) =>
    json(ctx, records.workstreamSummary(param(ctx, 'workstream_summary'))),
  );
  router.post('/workstream_summaries/:workstream_summary/delete', (ctx) => {
    records.delete('workstream_summary', param(ctx, 'workstream_summary'));
    empty(ctx);
  });
};
