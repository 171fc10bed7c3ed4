import { sql, type Kysely } from "kysely";

/**
 * Every Stripe subscription of a user (issue 26; docs/decisions/0043-every-subscription-and-session.md):
 * `subscriptions` keeps each one Stripe told us of, with its tier, status, end and the `created` (s)
 * of the last event applied to it, instead of one id on the user. The user keeps
 * `subscription_tier`, `subscription_status` and `subscription_ends_at` as the summary of the best
 * live one (or what the operator set by hand). The one id each user had moves here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("subscriptions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text")
    /** The tier it sells; null for a price no plan is set up for. */
    .addColumn("tier", "text")
    .addColumn("status", "text", (col) => col.notNull())
    /** When its paid tier ends (ms), for one cancelled, unpaid or deleted. */
    .addColumn("ends_at", "integer")
    .addColumn("event_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("subscriptions_user_idx").on("subscriptions").column("user_id").execute();

  await sql`
    insert into subscriptions (id, user_id, customer_id, tier, status, ends_at, event_at)
    select stripe_subscription_id, id, stripe_customer_id, subscription_tier, coalesce(subscription_status, 'active'), subscription_ends_at, coalesce(subscription_event_at, 0)
    from users where stripe_subscription_id is not null
  `.execute(db);
  await db.schema.alterTable("users").dropColumn("stripe_subscription_id").execute();
  await db.schema.alterTable("users").dropColumn("subscription_event_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("stripe_subscription_id", "text").execute();
  await db.schema.alterTable("users").addColumn("subscription_event_at", "integer").execute();
  // One id per user again: the one whose event came last.
  await sql`
    update users set
      stripe_subscription_id = (select id from subscriptions where user_id = users.id order by event_at desc limit 1),
      subscription_event_at = (select max(event_at) from subscriptions where user_id = users.id)
  `.execute(db);
  await db.schema.dropTable("subscriptions").execute();
}
