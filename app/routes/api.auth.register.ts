import { randomInt } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { DB } from "#db/connection.server";
import { isUniqueViolation } from "#db/errors";
import {
  CONFLICT_MESSAGES,
  createAccount,
  findConflicts,
  findUserByFirebaseUid,
  findUserRowByEmail,
  remainingAiQuizzes,
  type User,
} from "#app/models/user.server";
import { ApiError, handleApi, methodNotAllowed, readJson, requireGoogleIdentity, requireWithinLimit } from "#app/http/api.server";
import { verifyGoogleToken, type GoogleIdentity } from "#app/auth/firebase.server";
import { pickUsername } from "#app/auth/google-errors";
import { getUser, startSession } from "#app/sessions/session.server";
import { UsernameSchema } from "#app/schemas/validation";
import { appError } from "#app/i18n/app-error";

/**
 * The browser sends {username, email} (docs/product.md#http-api). The username is a wish: a display name may hold
 * characters a username may not, so it is cleaned and made unique rather than refused. The email
 * is ignored: the address comes from the verified token.
 */
const GoogleRegisterSchema = z.object({
  username: z.string({ error: "Username must be text." }).max(200, "Username is too long.").nullish(),
  email: z.string({ error: "Email must be text." }).max(320, "Email is too long.").nullish(),
});

const USERNAME_MAX = 30;

/** At most `max` UTF-16 units without splitting a character. */
function truncate(text: string, max: number): string {
  let result = "";
  for (const char of text) {
    if (result.length + char.length > max) break;
    result += char;
  }
  return result;
}

/** `base`, else `base2` … `base10`, else `base` with random digits: the first nobody has (ignoring case). */
async function uniqueUsername(db: DB, base: string): Promise<string> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const suffix = attempt === 1 ? "" : attempt <= 10 ? String(attempt) : String(randomInt(100, 1_000_000));
    const candidate = `${truncate(base, USERNAME_MAX - suffix.length).trimEnd()}${suffix}`;
    const conflicts = await findConflicts(db, candidate, null);
    if (!conflicts.includes("username") && UsernameSchema.safeParse(candidate).success) return candidate;
  }
  throw new ApiError(409, appError("USERNAME_TAKEN"));
}

/** Refusals that do not depend on the chosen username. */
async function assertCanRegister(db: DB, identity: GoogleIdentity, email: string): Promise<void> {
  if (await findUserByFirebaseUid(db, identity.uid)) throw new ApiError(409, appError("GOOGLE_ALREADY_REGISTERED"));
  // Not linked to an existing password account by email: that account may never have proved it owns the address.
  if (await findUserRowByEmail(db, email)) throw new ApiError(409, appError("GOOGLE_EMAIL_TAKEN"), { email: [CONFLICT_MESSAGES.email] });
}

/**
 * POST /api/auth/register with `Authorization: Bearer <Firebase ID token>` and {username, email}:
 * creates the account for that Google user (a guest who registers keeps what it made), signs it in
 * and answers 201 with the user record and a session cookie.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    // The body first, within its limits, so no refusal leaves it unread.
    const body = await readJson(request, GoogleRegisterSchema);
    const identity = requireGoogleIdentity(await verifyGoogleToken(request, context.logger));
    if (!identity.email) throw new ApiError(400, appError("GOOGLE_NO_EMAIL"));
    if (!identity.emailVerified) throw new ApiError(400, appError("GOOGLE_EMAIL_NOT_VERIFIED"));
    const email = identity.email;
    // The limit before any answer that says whether the account or email exists (issue 26).
    await requireWithinLimit(context, "register");
    await assertCanRegister(context.db, identity, email);

    const current = await getUser(context, request);
    const guestId = current?.isGuest ? current.id : null;
    const base = pickUsername([body.username, identity.name, email.split("@")[0]]);

    let user: User | null = null;
    for (let attempt = 0; !user; attempt++) {
      await assertCanRegister(context.db, identity, email);
      const username = await uniqueUsername(context.db, base);
      try {
        user = await createAccount(context.db, { username, email, firebaseUid: identity.uid, displayName: identity.name }, guestId);
      } catch (error) {
        // Another request took the name (or registered this account) in between: check again.
        if (!isUniqueViolation(error) || attempt >= 2) throw error;
      }
    }

    // A guest's upgrade: a copy of the guest's cookie elsewhere must not open the new account.
    const cookie = await startSession(context, request, user.id, { endOtherSessions: true });
    return Response.json(
      { ...user, remainingQuizzes: await remainingAiQuizzes(context.db, user) },
      { status: 201, headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
    );
  });
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
