import { empty, param } from '../http.ts';
import type { ConversationRelation } from '../../core/conversations/conversationService.ts';
import { route, type RouteModule } from './deps.ts';
import { conversationOperations as op } from '../../wire/conversations.ts';
import type { Operation } from '../../wire/operation.ts';

/**
 * The twelve association operations of a conversation. interface.md names the anchor and asset
 * disassociations `…/delete/{id}` while the client sends `…/disassociate/{id}`: both are served.
 */
const associations: ReadonlyArray<{
  readonly param: string;
  readonly relation: ConversationRelation;
  readonly associate: Operation;
  readonly remove: readonly Operation[];
}> = [
  { param: 'anchor', relation: 'anchor', associate: op.associateAnchor, remove: [op.disassociateAnchor, op.deleteAnchorLink] },
  { param: 'asset', relation: 'asset', associate: op.associateAsset, remove: [op.disassociateAsset, op.deleteAssetLink] },
  { param: 'website', relation: 'website', associate: op.associateWebsite, remove: [op.disassociateWebsite] },
  {
    param: 'workstream_summary',
    relation: 'workstream_summary',
    associate: op.associateWorkstreamSummary,
    remove: [op.disassociateWorkstreamSummary],
  },
  { param: 'message', relation: 'grounding_message', associate: op.associateGroundingMessage, remove: [op.disassociateGroundingMessage] },
  { param: 'range', relation: 'grounding_range', associate: op.associateGroundingRange, remove: [op.disassociateGroundingRange] },
];

export const conversationAssociationRoutes: RouteModule = (router, { core }) => {
  for (const { param: name, relation, associate, remove } of associations) {
    route(router, associate, (ctx) => {
      core.conversations.associate(param(ctx, 'conversation'), relation, param(ctx, name));
      empty(ctx);
    });
    for (const removal of remove) {
      route(router, removal, (ctx) => {
        core.conversations.disassociate(param(ctx, 'conversation'), relation, param(ctx, name));
        empty(ctx);
      });
    }
  }
};
