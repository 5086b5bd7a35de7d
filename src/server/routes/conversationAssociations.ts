import { empty, param } from '../http.ts';
import type { ConversationRelation } from '../../core/conversations/conversationService.ts';
import type { RouteModule } from './deps.ts';

/**
 * The twelve association operations of a conversation. interface.md names the anchor and asset
 * disassociations `…/delete/{id}` while the client sends `…/disassociate/{id}`: both are served.
 */
const associations: ReadonlyArray<{
  readonly segment: string;
  readonly param: string;
  readonly relation: ConversationRelation;
  readonly removeVerbs: readonly string[];
}> = [
  { segment: 'anchors', param: 'anchor', relation: 'anchor', removeVerbs: ['disassociate', 'delete'] },
  { segment: 'assets', param: 'asset', relation: 'asset', removeVerbs: ['disassociate', 'delete'] },
  { segment: 'websites', param: 'website', relation: 'website', removeVerbs: ['disassociate'] },
  { segment: 'workstream_summaries', param: 'workstream_summary', relation: 'workstream_summary', removeVerbs: ['disassociate'] },
  { segment: 'grounding/messages', param: 'message', relation: 'grounding_message', removeVerbs: ['disassociate'] },
  { segment: 'grounding/temporal_range/workstreams', param: 'range', relation: 'grounding_range', removeVerbs: ['disassociate'] },
];

export const conversationAssociationRoutes: RouteModule = (router, { core }) => {
  for (const { segment, param: name, relation, removeVerbs } of associations) {
    router.post(`/conversation/:conversation/${segment}/associate/:${name}`, (ctx) => {
      core.conversations.associate(param(ctx, 'conversation'), relation, param(ctx, name));
      empty(ctx);
    });
    for (const verb of removeVerbs) {
      router.post(`/conversation/:conversation/${segment}/${verb}/:${name}`, (ctx) => {
        core.conversations.disassociate(param(ctx, 'conversation'), relation, param(ctx, name));
        empty(ctx);
      });
    }
  }
};
