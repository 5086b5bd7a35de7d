import type { RouteModule } from './deps.ts';

/** Routes of the models area (see ../shared/reference/interface.md). */
export const modelsRoutes: RouteModule = () => {};
