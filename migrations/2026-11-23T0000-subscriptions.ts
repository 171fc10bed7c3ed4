import { sql, type Kysely } from "kysely";

/** The default plans (docs/product.md#plans), as they stood when this migration was written; PostgreSQL's baseline seeds the same. */
export const SEEDED_PLANS = [
  {
    name: "Free",
    description: "For trying Quiz Night out and the occasional quiz night.",
    price_cents: 0,
    ai_quiz_limit: 10,
    features: JSON.stringify(["10 AI quizzes per day", "Create and host your own quizzes", "Live games with players on any device"]),
    sort_order: 0,
  },
  {
    name: "Standard",
    description: "For hosts who run a quiz night every week.",
    price_cents: 499,
    ai_quiz_limit: 50,
    features: JSON.stringify(["50 AI quizzes per day", "Everything in Free", "Supports the project's development"]),
    sort_order: 1,
  },
  {
    name: "Premium",
    description: "For clubs, schools and pubs that quiz every day.",
    price_cents: 999,
    ai_quiz_limit: 100,
    features: JSON.stringify(["Unlimited AI quizzes (fair use: 100 per day)", "Everything in Standard", "First in line for new features"]),
    sort_order: 2,
  },
];

/**
 * Subscriptions: the plans (seeded with the default plans of docs/product.md#plans), each user's Stripe customer and
 * subscription, and the Stripe events already handled (webhooks are delivered at least once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("plans")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    /** Per month, in the currency's smallest unit (cents). */
    .addColumn("price_cents", "integer", (col) => col.notNull())
    .addColumn("currency", "text", (col) => col.notNull().defaultTo("usd"))
    .addColumn("ai_quiz_limit", "integer", (col) => col.notNull())
    /** JSON array of strings. */
    .addColumn("features", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  // A user's tier is the lower-case name of a plan.
  await sql`create unique index plans_name_nocase_idx on plans (lower(name))`.execute(db);

  await db.insertInto("plans").values(SEEDED_PLANS).execute();

  await db.schema.alterTable("users").addColumn("stripe_customer_id", "text").execute();
  await db.schema.alterTable("users").addColumn("stripe_subscription_id", "text").execute();
  /** Stripe's status of that subscription (active, past_due, canceled, ...). */
  await db.schema.alterTable("users").addColumn("subscription_status", "text").execute();
  /** When a cancelled or unpaid subscription's paid tier ends (ms); the user is on Free from then. */
  await db.schema.alterTable("users").addColumn("subscription_ends_at", "integer").execute();
  /** `created` (s) of the last subscription event applied, so an older one arriving late is ignored. */
  await db.schema.alterTable("users").addColumn("subscription_event_at", "integer").execute();
  await sql`create unique index users_stripe_customer_idx on users (stripe_customer_id) where stripe_customer_id is not null`.execute(db);

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("received_at", "integer", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stripe_events").execute();
  await sql`drop index users_stripe_customer_idx`.execute(db);
  for (const column of ["subscription_event_at", "subscription_ends_at", "subscription_status", "stripe_subscription_id", "stripe_customer_id"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
  await sql`drop index plans_name_nocase_idx`.execute(db);
  await db.schema.dropTable("plans").execute();
}
