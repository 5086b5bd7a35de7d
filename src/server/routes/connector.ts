import type { RouteModule } from './deps.ts';

/** Routes of the connector area (see ../shared/reference/interface.md). */
export const connectorRoutes: RouteModule = () => {};
