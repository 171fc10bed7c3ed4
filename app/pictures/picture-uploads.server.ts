/**
 * Who may upload a picture, and what it costs beyond the owner's storage (issue 26, hole 7;
 * docs/decisions/0042-limits-that-mean-what-they-say.md): only a session (an account or a guest;
 * a client id, which any caller can make up, buys nothing), within a daily budget of new bytes per
 * address and for the whole server, and while the database's disk has more than its floor free.
 * POST /api/images and the editor's form without JavaScript (/create) both ask here.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { User } from "#app/models/user.server";
import { appError, type AppError } from "#app/i18n/app-error";

export const PICTURES_NEED_SESSION = "Sign in or continue as a guest to upload pictures.";
export const DISK_LOW = "This server is running low on disk space and takes no new pictures for now. Please try again later.";

const NO_SESSION: UploadRefusal = { reason: "no-session", message: PICTURES_NEED_SESSION, error: appError("PICTURES_NEED_SESSION") };

/** The whole server's key in the limits store. */
const WHOLE_SERVER = "server";

/** A refusal with its code and values (`error`) and its English words (`message`, for the form's field). */
export type UploadRefusal = (
  { reason: "no-session"; message: string } | { reason: "over-budget"; message: string; retryAfterSeconds: number } | { reason: "disk-low"; message: string }
) & { error: AppError };

type UploadContext = Pick<AppLoadContext, "limits" | "clientIp" | "diskSpace">;

export type UploadAllowance = { ok: true; user: User } | { ok: false; refusal: UploadRefusal };

/** Whether this request may upload, as its signed-in user or guest; spends nothing (`chargeUpload` counts what was stored). */
export async function uploadAllowance(context: UploadContext, user: User | null): Promise<UploadAllowance> {
  const refusal = await uploadRefusal(context, user);
  return user && !refusal ? { ok: true, user } : { ok: false, refusal: refusal ?? NO_SESSION };
}

async function uploadRefusal(context: UploadContext, user: User | null): Promise<UploadRefusal | null> {
  if (!user) return NO_SESSION;
  for (const [name, key] of [
    ["imageBytesAddress", context.clientIp || "unknown"],
    ["imageBytesServer", WHOLE_SERVER],
  ] as const) {
    const check = await context.limits.peek(name, key);
    if (!check.ok) return { reason: "over-budget", message: check.message, retryAfterSeconds: check.retryAfterSeconds, error: check.error };
  }
  if (!(await context.diskSpace.hasRoomForUploads())) return { reason: "disk-low", message: DISK_LOW, error: appError("DISK_LOW") };
  return null;
}

/** Counts the bytes an upload added to the disk against the address's and the server's daily budgets. */
export async function chargeUpload(context: UploadContext, newBytes: number): Promise<void> {
  await context.limits.charge("imageBytesAddress", context.clientIp || "unknown", newBytes);
  await context.limits.charge("imageBytesServer", WHOLE_SERVER, newBytes);
}
