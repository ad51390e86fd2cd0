import type { Migration } from '../db/migrations.ts';

/** The delivery log's schema (owner `mail`). */
export const MAIL_MIGRATIONS: Migration[] = [];
