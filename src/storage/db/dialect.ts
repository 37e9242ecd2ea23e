import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';

/** The few places where SQLite and PostgreSQL differ. Everything else uses one query layer. */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  const name = db.getExecutor().adapter.constructor.name;
  return name.startsWith('Postgres') ? 'postgres' : 'sqlite';
}

/** An auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch-millisecond columns need 64 bits in PostgreSQL; SQLite integers already are. */
export const millis = 'bigint' as const;

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();


/** Case-insensitive equality on text, used for e-mail addresses. */
export function lowerEquals(column: string, value: string) {
  return sql<boolean>`lower(${sql.ref(column)}) = ${value.toLowerCase()}`;
}
