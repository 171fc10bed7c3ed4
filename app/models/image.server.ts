/**
 * Pictures for questions, stored in the database by the SHA-256 of their large rendition, and the
 * uploads that count against each owner's storage (docs/decisions/0019-pictures.md).
 */
import { createHash } from "node:crypto";
import { sql, type ExpressionBuilder } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import { lockUntilCommit } from "#db/locks.server";
import type { Database } from "#db/schema";
import { appError, type AppError } from "#app/i18n/app-error";
import { processPicture, sniffPictureFormat, UNSUPPORTED_PICTURE_MESSAGE } from "#app/pictures/image-processing.server";
import { MAX_UPLOAD_BYTES } from "#app/pictures/storage-limits";

export { MAX_UPLOAD_BYTES };

/** Who uploads: an account (or guest) counts by its user id; a browser without one by its client id. */
export interface ImageOwner {
  userId: number | null;
  clientId: string | null;
}

export interface StoredImage {
  id: string;
  width: number;
  height: number;
  /** What it counts against the owner's storage: both renditions. */
  bytes: number;
  /** What this upload added to the disk: both renditions for a picture new to the server, else 0. */
  newBytes: number;
}

export type StoreImageResult =
  | { status: "ok"; value: StoredImage }
  | { status: "invalid"; message: string; error: AppError }
  | { status: "too-large"; maxBytes: number }
  | { status: "over-quota"; usedBytes: number; limitBytes: number };

const IMAGE_ID = /^[0-9a-f]{64}$/;

/**
 * Stores an upload's renditions (once, whoever uploaded the same picture before) and charges it to
 * `owner` (once: the same picture again costs nothing more), unless it would take the owner past
 * `limitBytes`.
 */
export async function storeImage(
  db: DB,
  data: Uint8Array,
  owner: ImageOwner,
  limitBytes: number,
  now = Date.now(),
  options: { maxInputPixels?: number } = {},
): Promise<StoreImageResult> {
  if (owner.userId === null && owner.clientId === null) throw new Error("storeImage needs an owner: a user id or a client id");
  if (data.byteLength > MAX_UPLOAD_BYTES) return { status: "too-large", maxBytes: MAX_UPLOAD_BYTES };
  if (!sniffPictureFormat(data)) return { status: "invalid", message: UNSUPPORTED_PICTURE_MESSAGE, error: appError("PICTURE_UNSUPPORTED") };
  // A picture exported from here and imported again is a stored large rendition byte for byte: it
  // is the same picture, not one to encode again (which would store a slightly worse copy).
  const sameAsStored = createHash("sha256").update(data).digest("hex");
  if (await db.selectFrom("images").select("id").where("id", "=", sameAsStored).executeTakeFirst()) {
    return chargeStored(db, sameAsStored, owner, limitBytes, now);
  }
  // Re-encoding takes up to a second of CPU: it happens before the transaction, which would
  // otherwise hold the one database connection, and every game's writes with it, meanwhile.
  const processed = await processPicture(data, options.maxInputPixels);
  if (processed.status !== "ok") return processed;
  const { large, small, width, height } = processed.value;
  const id = createHash("sha256").update(large).digest("hex");
  return chargeStored(db, id, owner, limitBytes, now, { large, small, width, height });
}

/** Charges the owner for a stored picture (storing it first when `fresh` is new), within its quota. */
async function chargeStored(
  db: DB,
  id: string,
  owner: ImageOwner,
  limitBytes: number,
  now: number,
  fresh?: { large: Buffer; small: Buffer; width: number; height: number },
): Promise<StoreImageResult> {
  return inTransaction(db, async (trx) => {
    // The quota is read and spent in one transaction, so two uploads at once cannot both fit in the
    // last space: on PostgreSQL the owner's lock keeps another server's upload out until this one commits.
    await lockUntilCommit(trx, `image-quota:${owner.userId === null ? `client:${owner.clientId}` : `user:${owner.userId}`}`);
    const charged = await ownerUploads(trx, owner).select("bytes").where("image_uploads.image_id", "=", id).executeTakeFirst();
    const stored = await trx
      .selectFrom("images")
      .select(["width", "height", sql<number>`length(large) + length(small)`.as("bytes")])
      .where("id", "=", id)
      .executeTakeFirst();
    if (charged && stored) return { status: "ok", value: { id, width: stored.width, height: stored.height, bytes: charged.bytes, newBytes: 0 } };

    // A picture someone else uploaded first keeps its renditions (an older sharp may have made a
    // slightly different small one): the owner is charged what is actually stored.
    if (!stored && !fresh) throw new Error("A picture to charge is neither stored nor given.");
    const image = stored ?? { width: fresh!.width, height: fresh!.height, bytes: fresh!.large.byteLength + fresh!.small.byteLength };
    const usedBytes = await storageUsed(trx, owner, now);
    if (usedBytes + image.bytes > limitBytes) return { status: "over-quota", usedBytes, limitBytes };
    // Another owner's upload of the same picture may store it at the same moment: then theirs stays.
    if (!stored)
      await trx
        .insertInto("images")
        .values({ id, ...fresh!, created_at: now })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .execute();
    await trx
      .insertInto("image_uploads")
      .values({ image_id: id, user_id: owner.userId, client_id: owner.userId === null ? owner.clientId : null, bytes: image.bytes, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return { status: "ok", value: { id, width: image.width, height: image.height, bytes: image.bytes, newBytes: stored ? 0 : image.bytes } };
  });
}

/** The owner's uploads: by user id when there is one, else by client id (and no account). */
function ownerUploads(db: DB, owner: ImageOwner) {
  const uploads = db.selectFrom("image_uploads");
  if (owner.userId !== null) return uploads.where("user_id", "=", owner.userId);
  return uploads.where("user_id", "is", null).where("client_id", "=", owner.clientId ?? "");
}

/** One rendition's WebP bytes; undefined for an unknown or malformed id. */
export async function getImage(db: DB, id: string, size: "large" | "small"): Promise<Buffer | undefined> {
  if (!IMAGE_ID.test(id)) return undefined;
  const row = await db
    .selectFrom("images")
    .select(size === "small" ? "small as data" : "large as data")
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.data;
}

/** Which of `ids` are stored pictures (a quiz may only name those). */
export async function imagesExist(db: DB, ids: string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((id) => IMAGE_ID.test(id)))];
  const found = new Set<string>();
  // SQLite caps the parameters of one statement; a quiz's pictures fit in one chunk.
  for (let start = 0; start < wanted.length; start += 500) {
    const rows = await db
      .selectFrom("images")
      .select("id")
      .where("id", "in", wanted.slice(start, start + 500))
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Bytes of the owner's uploads, each picture counted once. */
export async function storageUsed(db: DB, owner: ImageOwner, now = Date.now()): Promise<number> {
  if (owner.userId === null && owner.clientId === null) return 0;
  const row = await ownerUploads(db, owner)
    .where((eb) => eb.or([eb("image_uploads.created_at", ">", now - UNSAVED_PICTURE_GRACE_MS), usedByOwnQuiz(eb)]))
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("bytes"), eb.lit(0)).as("used"))
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/**
 * A picture uploaded but not (yet) in any of its owner's quizzes counts against the owner's storage
 * for this long: long enough to finish the quiz it was chosen for; after that it no longer counts,
 * and the sweep forgets it (docs/decisions/0019-pictures.md).
 */
export const UNSAVED_PICTURE_GRACE_MS = 24 * 60 * 60 * 1000;

/** The upload's picture is in a current question of one of its owner's quizzes (not deleted). */
function usedByOwnQuiz(eb: ExpressionBuilder<Database, "image_uploads">) {
  return eb.exists(
    eb
      .selectFrom("questions")
      .innerJoin("quizzes", "quizzes.id", "questions.quiz_id")
      .select("questions.id")
      .whereRef("questions.image_id", "=", "image_uploads.image_id")
      .where("questions.retired_at", "is", null)
      .where("quizzes.deleted_at", "is", null)
      .where((inner) =>
        inner.or([
          inner.and([inner("image_uploads.user_id", "is not", null), inner("quizzes.creator_id", "=", inner.ref("image_uploads.user_id"))]),
          inner.and([
            inner("image_uploads.user_id", "is", null),
            inner("quizzes.creator_id", "is", null),
            inner("quizzes.owner_client_id", "=", inner.ref("image_uploads.client_id")),
          ]),
        ]),
      ),
  );
}

/**
 * Forgets uploads that no quiz of their owner uses any more (past the grace period), then removes
 * pictures nobody has uploaded and no question names (a game still playing a deleted quiz keeps
 * its pictures until the quiz is purged). Returns how many pictures were removed.
 */
export async function purgeUnusedImages(db: DB, now = Date.now()): Promise<number> {
  await db
    .deleteFrom("image_uploads")
    .where("image_uploads.created_at", "<=", now - UNSAVED_PICTURE_GRACE_MS)
    .where((eb) => eb.not(usedByOwnQuiz(eb)))
    .execute();
  const removed = await db
    .deleteFrom("images")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("image_uploads").select("image_uploads.id").whereRef("image_uploads.image_id", "=", "images.id"))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom("questions").select("questions.id").whereRef("questions.image_id", "=", "images.id"))))
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
