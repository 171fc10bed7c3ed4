/**
 * Upgrading a database whose users each had one Stripe subscription id to the table of every
 * subscription (issue 26): the id, its tier, status, end and last event move to `subscriptions`,
 * and a user whose tier came from one keeps it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/connection.server";
import { findUserById } from "#app/models/user.server";
import { migrationProvider } from "#migrations/index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-upgrade-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("moves each user's subscription id into subscriptions and keeps the tier", async () => {
  const db = openDatabase(path.join(dir, "upgrade.sqlite"));
  const before = await new Migrator({ db, provider: migrationProvider }).migrateTo("2026-11-29T0000-teams-and-rounds");
  expect(before.error).toBeUndefined();
  const now = Date.now();
  const endsAt = now + 86_400_000;
  await sql`insert into users (id, username, email, created_at, subscription_tier, stripe_customer_id, stripe_subscription_id, subscription_status, subscription_ends_at, subscription_event_at)
    values (101, 'payer', 'payer@example.com', ${now}, 'premium', 'cus_old', 'sub_old', 'active', ${endsAt}, 1700000000),
           (102, 'free', 'free@example.com', ${now}, 'free', null, null, null, null, null)`.execute(db);

  await migrateToLatest(db);

  expect(await db.selectFrom("subscriptions").selectAll().execute()).toEqual([
    { id: "sub_old", user_id: 101, customer_id: "cus_old", tier: "premium", status: "active", ends_at: endsAt, event_at: 1700000000 },
  ]);
  expect((await findUserById(db, 101))?.subscriptionTier).toBe("premium");
  expect((await findUserById(db, 102))?.subscriptionTier).toBe("free");
  const columns = (await sql<{ name: string }>`pragma table_info(users)`.execute(db)).rows.map((column) => column.name);
  expect(columns).not.toContain("stripe_subscription_id");
  expect(columns).not.toContain("subscription_event_at");
  await db.destroy();
});
