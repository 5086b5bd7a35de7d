/**
 * A model as the Pieces door shows it. Pieces clients build their chat-model picker from
 * GET /models by keeping every model that is `cloud` or `downloaded` and read nothing else (the
 * Python SDK's `get_models`, in Pieces for Neovim, the Pieces CLI and Pieces for Sublime's copy; the
 * CLI's TUI filters the same way). So a model that cannot chat (the language classifier, an
 * embedding model) is shown there as not downloaded; its usage, foundation and capabilities stay
 * as they are, and Satchel's own views read the true state from GET /satchel/models.
 */
import type { Model, Models } from '../piecesTypes.ts';
import { canChat } from './catalog.ts';

export function piecesView(model: Model): Model {
  return canChat(model) ? model : { ...model, downloaded: false };
}

export function piecesViews(models: Models): Models {
  return { ...models, iterable: models.iterable.map(piecesView) };
}
