import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import type { UserRow } from "#db/schema";
import { isLanguage, type Language } from "#app/i18n/languages";
import { FREE_TIER, GUEST_AI_QUIZ_LIMIT } from "#app/billing/plans";
import { dailyAiQuizLimit } from "./plan.server";
import { refreshTier } from "./subscription-tier.server";
import { removeQuiz } from "./quiz-delete.server";

/** What the browser may know about a user (docs/product.md#accounts). */
export interface User {
  id: number;
  username: string;
  displayName: string | null;
  email: string | null;
  subscriptionTier: string;
  isGuest: boolean;
  hasPassword: boolean;
  /** Has a Stripe customer, so Manage billing can open the customer portal. */
  hasBillingAccount: boolean;
  /** The interface language chosen with the footer's switcher while signed in; null: the browser's. */
  language: Language | null;
}

/** The tier in force: a cancelled or unpaid subscription's paid tier lasts until its period ends. */
export function effectiveTier(row: Pick<UserRow, "subscription_tier" | "subscription_ends_at">, now = Date.now()): string {
  return row.subscription_ends_at !== null && row.subscription_ends_at <= now ? FREE_TIER : row.subscription_tier;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    email: row.email,
    subscriptionTier: effectiveTier(row),
    isGuest: row.is_guest === 1,
    hasPassword: row.password_hash !== null,
    hasBillingAccount: row.stripe_customer_id !== null,
    language: isLanguage(row.language) ? row.language : null,
  };
}

/** argon2id with the library's defaults (19 MiB, 2 passes), OWASP's recommended floor. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Spends about as long as a real check, so an unknown email cannot be told from a wrong password by timing. */
const DUMMY_HASH = hash(randomBytes(16).toString("hex"));
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(await DUMMY_HASH, password);
}

/** Remembers the interface language on the account, so the user's other browsers speak it too. */
export async function setUserLanguage(db: DB, userId: number, language: Language): Promise<void> {
  await db.updateTable("users").set({ language }).where("id", "=", userId).execute();
}

/**
 * The user; when the subscription that gave their tier has ended, the tier is first worked out
 * again from their other subscriptions (one still paid for keeps a paid tier), so no scheduler is needed.
 */
export async function findUserById(db: DB, id: number, now = Date.now()): Promise<User | null> {
  let row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (row && row.subscription_ends_at !== null && row.subscription_ends_at <= now) {
    await refreshTier(db, id, now);
    row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }
  return row ? toUser(row) : null;
}

/** The system account that owns the demo quizzes (made by a migration); nobody can sign in as it. */
export async function systemUserId(db: DB): Promise<number> {
  const row = await db.selectFrom("users").select("id").where("is_system", "=", 1).executeTakeFirstOrThrow();
  return row.id;
}

export async function findUserRowByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(sql`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
}

export type Conflict = "username" | "email";

/** Which of a username and an email another user already has. */
export async function findConflicts(db: DB, username: string, email: string | null, exceptUserId?: number): Promise<Conflict[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "username", "email"])
    .where((eb) => eb.or([eb(sql`lower(username)`, "=", username.toLowerCase()), ...(email ? [eb(sql`lower(email)`, "=", email.toLowerCase())] : [])]))
    .execute();
  const conflicts = new Set<Conflict>();
  for (const row of rows) {
    if (row.id === exceptUserId) continue;
    if (row.username.toLowerCase() === username.toLowerCase()) conflicts.add("username");
    if (email && row.email?.toLowerCase() === email.toLowerCase()) conflicts.add("email");
  }
  return [...conflicts];
}

export const CONFLICT_MESSAGES: Record<Conflict, string> = {
  username: "That username is already taken",
  email: "An account with this email already exists",
};

export interface NewAccount {
  username: string;
  email: string;
  password?: string;
  firebaseUid?: string;
  displayName?: string | null;
}

/**
 * Creates an account, or turns the current guest into one so it keeps what it made.
 * The caller has checked conflicts; a race still ends in the unique index.
 */
export async function createAccount(db: DB, input: NewAccount, guestId?: number | null, now = Date.now()): Promise<User> {
  const values = {
    username: input.username,
    email: input.email,
    display_name: input.displayName ?? null,
    password_hash: input.password ? await hashPassword(input.password) : null,
    firebase_uid: input.firebaseUid ?? null,
    is_guest: 0,
  };
  if (guestId) {
    const upgraded = await db.updateTable("users").set(values).where("id", "=", guestId).where("is_guest", "=", 1).returningAll().executeTakeFirst();
    if (upgraded) return toUser(upgraded);
  }
  const row = await db
    .insertInto("users")
    .values({ ...values, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function createGuest(db: DB, now = Date.now()): Promise<User> {
  const row = await db
    .insertInto("users")
    .values({ username: `guest-${randomBytes(6).toString("hex")}`, is_guest: 1, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function findUserByFirebaseUid(db: DB, uid: string): Promise<User | null> {
  const row = await db.selectFrom("users").selectAll().where("firebase_uid", "=", uid).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function changePassword(db: DB, userId: number, password: string): Promise<void> {
  await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(password) })
    .where("id", "=", userId)
    .execute();
}

/**
 * Deletes the account, its sessions and everything it owns: its quizzes and the reports of the
 * games it hosted. A game still being played goes on without it (its host becomes nobody's), and a
 * quiz that a game still lists, another host's or a running one, is hidden and goes with the last
 * such game (see `removeQuiz`), so nobody's game or report stops.
 */
export async function deleteAccount(db: DB, userId: number, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("games").where("host_id", "=", userId).where("status", "=", "finished").execute();
    const quizzes = await trx.selectFrom("quizzes").select("id").where("creator_id", "=", userId).where("deleted_at", "is", null).execute();
    for (const quiz of quizzes) await removeQuiz(trx, quiz.id, now);
    await trx.deleteFrom("users").where("id", "=", userId).execute();
  });
}

export interface AiQuizQuota {
  /** Guests: in all; accounts: per UTC day, from their plan. */
  limit: number;
  remaining: number;
}

/** AI quizzes allowed and left: guests have 5 in total, accounts a daily allowance from their plan. */
export async function aiQuizQuota(db: DB, user: User, now = Date.now()): Promise<AiQuizQuota> {
  const since = user.isGuest ? 0 : startOfUtcDay(now);
  const { used } = await db
    .selectFrom("ai_generations")
    .select((eb) => eb.fn.countAll<number>().as("used"))
    .where("user_id", "=", user.id)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  const limit = user.isGuest ? GUEST_AI_QUIZ_LIMIT : await dailyAiQuizLimit(db, user.subscriptionTier);
  return { limit, remaining: Math.max(0, limit - Number(used)) };
}

export async function remainingAiQuizzes(db: DB, user: User, now = Date.now()): Promise<number> {
  return (await aiQuizQuota(db, user, now)).remaining;
}

function startOfUtcDay(now: number): number {
  const day = new Date(now);
  day.setUTCHours(0, 0, 0, 0);
  return day.getTime();
}
