import type { RouteModule } from './deps.ts';

/** Routes of the applications area (see ../shared/reference/interface.md). */
export const applicationsRoutes: RouteModule = () => {};
