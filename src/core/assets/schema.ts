import type { Migration } from '../store/database.ts';

/** Schema of the assets area. Its versions are 2, then 102, 202… (so areas never collide). */
export const assetMigrations: readonly Migration[] = [];
