import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, type ActionFunctionArgs } from "@remix-run/node";
import { MAX_UPLOAD_BYTES, storeImage } from "#app/models/image.server";
import { ApiError, handleApi, methodNotAllowed, requireWithinLimit } from "#app/http/api.server";
import { ROUTE_BODIES } from "#app/limits/body-limits";
import { busyAnswer } from "#app/limits/heavy-limits";
import { BodyRefusal, readMultipart } from "#app/http/request-body.server";
import { chargeUpload, uploadAllowance, type UploadRefusal } from "#app/pictures/picture-uploads.server";
import { getUser } from "#app/sessions/session.server";
import { MAX_UPLOAD_REQUEST_BYTES, overStorageError, pictureTooLargeError, storageLimitOfUser } from "#app/pictures/storage-limits";
import { appError } from "#app/i18n/app-error";

const SEND_MULTIPART = "Send the picture as multipart/form-data with a file field named image.";
const CHOOSE_PICTURE = "Choose a picture to upload.";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** The `image` file of a multipart body, read into memory up to MAX_UPLOAD_BYTES; other fields are skipped. */
async function readImageField(request: Request): Promise<Uint8Array> {
  let form: FormData;
  try {
    // Its parts counted and checked as they come (body-limits.ts); the picture is read here.
    form = await readMultipart(
      request,
      ROUTE_BODIES["/api/images"].body,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES, filter: ({ name }) => name === "image" }),
    );
  } catch (error) {
    if (error instanceof BodyRefusal) throw error;
    if (error instanceof MaxPartSizeExceededError) throw new ApiError(413, pictureTooLargeError(MAX_UPLOAD_BYTES));
    throw new ApiError(400, SEND_MULTIPART);
  }
  const file = form.get("image");
  if (!(file instanceof Blob) || file.size === 0) throw new ApiError(400, appError("PICTURE_CHOOSE"), { image: [CHOOSE_PICTURE] });
  return new Uint8Array(await file.arrayBuffer());
}

/** 401: sign in (or continue as a guest) first; 429: a daily budget is used up; 507: the disk is nearly full. */
const UPLOAD_REFUSAL_STATUS: Record<UploadRefusal["reason"], number> = { "no-session": 401, "over-budget": 429, "disk-low": 507 };

/**
 * POST /api/images (multipart/form-data, file field `image`: PNG, JPEG, WebP or GIF up to 5 MB)
 * -> 201 { id, width, height, bytes, url, smallUrl }. The picture counts against the uploader's
 * storage: its account's plan, or a guest's. Only a session may upload, within the daily budgets
 * of its address and of the server, and while the disk has room (app/pictures/picture-uploads.server.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    // Refused before a byte of the body is read.
    if (Number(request.headers.get("content-length") ?? "0") > MAX_UPLOAD_REQUEST_BYTES) throw new ApiError(413, pictureTooLargeError(MAX_UPLOAD_BYTES));
    if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) throw new ApiError(415, SEND_MULTIPART);
    const allowed = await uploadAllowance(context, await getUser(context, request));
    if (!allowed.ok) {
      const { refusal } = allowed;
      throw new ApiError(
        UPLOAD_REFUSAL_STATUS[refusal.reason],
        refusal.error,
        undefined,
        refusal.reason === "over-budget" ? refusal.retryAfterSeconds : undefined,
        refusal.message,
      );
    }
    const { user } = allowed;
    await requireWithinLimit(context, "image");
    // A slot for heavy work before the body is read: a busy node reads no more of it (server/heavy-work.ts).
    const slot = await context.heavyWork.acquire(context.clientIp);
    if (!slot.ok) {
      const { status, error } = busyAnswer(slot);
      throw new ApiError(status, error, undefined, slot.retryAfterSeconds);
    }
    let stored: Awaited<ReturnType<typeof storeImage>>;
    try {
      const data = await readImageField(request);
      const limitBytes = storageLimitOfUser(user);
      const { maxInputPixels } = context.heavyWork.options;
      stored = await storeImage(context.db, data, { userId: user.id, clientId: null }, limitBytes, Date.now(), { maxInputPixels });
    } finally {
      slot.release();
    }
    if (stored.status === "invalid") throw new ApiError(400, stored.error, { image: [stored.message] });
    if (stored.status === "too-large") throw new ApiError(413, pictureTooLargeError(stored.maxBytes));
    // 409: the upload itself is fine; the owner's storage is full, and freeing some makes it succeed.
    if (stored.status === "over-quota") throw new ApiError(409, overStorageError(stored.usedBytes, stored.limitBytes));

    const { id, width, height, bytes, newBytes } = stored.value;
    await chargeUpload(context, newBytes);
    context.logger.info({ event: "image_uploaded", imageId: id, bytes, userId: user.id }, "picture uploaded");
    return Response.json({ id, width, height, bytes, url: `/images/${id}`, smallUrl: `/images/${id}?size=small` }, { status: 201 });
  });
}
