import type { Migration } from '../store/database.ts';

/** Schema of the models area. Its versions are 5, then 105, 205… (so areas never collide). */
export const modelMigrations: readonly Migration[] = [];
