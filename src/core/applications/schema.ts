import type { Migration } from '../store/database.ts';

/** Schema of the applications area. Its versions are 3, then 103, 203… (so areas never collide). */
export const applicationMigrations: readonly Migration[] = [];
