import type { Kysely } from 'kysely';

/** How a target wants its events: `json` (the body is the payload) or `multipart` (plate
 * readings only: a `json` string field and the image as `upload`, as compatibility.md says). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('payload_format', 'text', (c) => c.notNull().defaultTo('json')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('payload_format').execute();
}
