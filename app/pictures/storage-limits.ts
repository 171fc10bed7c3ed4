/**
 * How much picture storage each owner has (docs/decisions/0019-pictures.md), and the messages that
 * tell them. Shared with the browser so the editor can say the same before it uploads.
 */
import { appError, type AppError } from "#app/i18n/app-error";
import { FREE_TIER } from "#app/billing/plans";

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** One uploaded picture, before re-encoding. */
export const MAX_UPLOAD_BYTES = 5 * MB;

/** An upload request: the picture plus room for the multipart framing around it. */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * KB;

/** By subscription tier (a plan's lower-case name, see plans.ts); what the owner's uploads may add up to. */
export const STORAGE_LIMIT_BYTES: Readonly<Record<string, number>> = {
  free: 50 * MB,
  standard: 500 * MB,
  premium: 2 * GB,
};

/** A browser without an account, and a guest: enough for a few picture rounds. */
export const ANONYMOUS_STORAGE_LIMIT_BYTES = 20 * MB;

/** The storage of an owner: by tier for an account; a tier whose plan was renamed or removed gets Free's. */
export function storageLimitFor(tier: string | null, isGuest: boolean): number {
  if (isGuest || tier === null) return ANONYMOUS_STORAGE_LIMIT_BYTES;
  return STORAGE_LIMIT_BYTES[tier.toLowerCase()] ?? STORAGE_LIMIT_BYTES[FREE_TIER];
}

/** The storage of whoever makes a request: a signed-in user's (or guest's), else an anonymous browser's. */
export function storageLimitOfUser(user: { subscriptionTier: string; isGuest: boolean } | null): number {
  return user ? storageLimitFor(user.subscriptionTier, user.isGuest) : storageLimitFor(null, false);
}

/** "50 MB", "49.8 MB", "2 GB", "312 KB": sizes in binary units, at most one decimal. */
export function describeBytes(n: number): string {
  const [value, unit] = n >= GB ? [n / GB, "GB"] : n >= MB ? [n / MB, "MB"] : n >= KB ? [n / KB, "KB"] : [n, "bytes"];
  const shown = unit === "bytes" ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${unit}`;
}

export function pictureTooLargeMessage(maxBytes: number = MAX_UPLOAD_BYTES): string {
  return `Pictures can be at most ${describeBytes(maxBytes)}.`;
}

/** The refusal of a picture past `maxBytes`, raised with its code (docs/decisions/0047-errors-as-codes.md). */
export function pictureTooLargeError(maxBytes: number = MAX_UPLOAD_BYTES): AppError {
  return appError("PICTURE_TOO_LARGE", { size: describeBytes(maxBytes) });
}

/** The refusal of a picture past its owner's storage. */
export function overStorageError(usedBytes: number, limitBytes: number): AppError {
  return appError("STORAGE_FULL", { used: describeBytes(usedBytes), limit: describeBytes(limitBytes) });
}

export function overStorageMessage(usedBytes: number, limitBytes: number): string {
  return `Your pictures use ${describeBytes(usedBytes)} of your ${describeBytes(limitBytes)}. Delete a quiz with pictures or upgrade your plan.`;
}
