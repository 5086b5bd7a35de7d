import type { StoreContext } from '../context.ts';
import type { ModelService } from '../models/modelService.ts';
import type { Conversation } from '../wire.ts';

/** Conversations, messages, annotations and their associations. */
export class ConversationService {
  private readonly context: StoreContext;
  private readonly models: ModelService;

  constructor(context: StoreContext, models: ModelService) {
    this.context = context;
    this.models = models;
  }

  /** Conversations associated with an asset (GET /asset/{asset}/conversations). */
  listForAsset(assetId: string, transferables: boolean): Conversation[] {
    void assetId;
    void transferables;
    return [];
  }
}
