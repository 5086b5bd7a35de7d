import type { RouteModule } from './deps.ts';

/** Routes of the assets area (see ../shared/reference/interface.md). */
export const assetsRoutes: RouteModule = () => {};
