import type { RouteModule } from './deps.ts';

/** Routes of the conversations area (see ../shared/reference/interface.md). */
export const conversationsRoutes: RouteModule = () => {};
