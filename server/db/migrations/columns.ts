import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { engineOf } from '../database';

/**
 * The generated integer key of a table, on either engine: SQLite's `INTEGER PRIMARY KEY AUTOINCREMENT` (ids
 * are never reused), Postgres's identity column (Kysely's autoIncrement() has no Postgres form).
 */
export function autoId(db: Kysely<unknown>) {
  const postgres = engineOf(db) === 'postgres';
  return (c: ColumnDefinitionBuilder) =>
    postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}
