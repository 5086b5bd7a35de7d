import type { StoreContext } from '../context.ts';

/** Applications that connected, their sessions and engagement figures. */
export class ApplicationService {
  private readonly context: StoreContext;

  constructor(context: StoreContext) {
    this.context = context;
  }
}
