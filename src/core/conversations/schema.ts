import type { Migration } from '../store/database.ts';

/** Schema of the conversations area. Its versions are 4, then 104, 204… (so areas never collide). */
export const conversationMigrations: readonly Migration[] = [];
