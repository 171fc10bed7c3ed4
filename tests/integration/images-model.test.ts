/**
 * Pictures in the database: stored once by content, charged once per owner, refused whole when
 * over the owner's storage; and the upload and picture routes called with real Requests.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import {
  getImage,
  imagesExist,
  MAX_UPLOAD_BYTES,
  purgeUnusedImages,
  storageUsed,
  storeImage,
  UNSAVED_PICTURE_GRACE_MS,
  type ImageOwner,
  type StoredImage,
} from "#app/models/image.server";
import { createQuizWithQuestions } from "#app/models/quiz.server";
import { deleteQuiz } from "#app/models/quiz-delete.server";
import { QuestionInputSchema } from "#app/game/question-input";
import { createAccount, createGuest } from "#app/models/user.server";
import * as uploadApi from "#app/routes/api.images";
import * as createRoute from "#app/routes/create";
import * as imageRoute from "#app/routes/images.$id";
import { DiskSpace } from "#app/limits/disk-space.server";
import { startSession } from "#app/sessions/session.server";
import { ANONYMOUS_STORAGE_LIMIT_BYTES, STORAGE_LIMIT_BYTES } from "#app/pictures/storage-limits";
import { HeavyWork } from "#server/heavy-work";
import { createLogger } from "#server/logger";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";

let database: TempDatabase;
let db: DB;

beforeAll(async () => {
  database = await openTempDatabase("images");
  db = database.db;
});

afterAll(() => database.remove());

const PLENTY = 100 * 1024 * 1024;
let pictures = 0;

/** A different PNG each call (its colour), or the same one for the same seed. */
function png(seed = ++pictures, width = 640, height = 480): Promise<Buffer> {
  const background = { r: (seed * 37) % 256, g: (seed * 91) % 256, b: (seed * 53) % 256 };
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

async function stored(data: Uint8Array, owner: ImageOwner, limit = PLENTY): Promise<StoredImage> {
  const result = await storeImage(db, data, owner, limit);
  if (result.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.value;
}

async function counts(id?: string) {
  const images = await db
    .selectFrom("images")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .$if(!!id, (q) => q.where("id", "=", id!))
    .executeTakeFirstOrThrow();
  const uploads = await db
    .selectFrom("image_uploads")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .$if(!!id, (q) => q.where("image_id", "=", id!))
    .executeTakeFirstOrThrow();
  return { images: Number(images.n), uploads: Number(uploads.n) };
}

/** A stand-in picture for uploads that only need to weigh something. */
async function fillerImage(): Promise<string> {
  const id = "e".repeat(64);
  await db
    .insertInto("images")
    .values({ id, large: Buffer.from("x"), small: Buffer.from("x"), width: 1, height: 1, created_at: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return id;
}

let users = 0;
async function newUser(tier = "free") {
  const n = ++users;
  const user = await createAccount(db, { username: `pictures${n}`, email: `pictures${n}@example.com` });
  await db.updateTable("users").set({ subscription_tier: tier }).where("id", "=", user.id).execute();
  return user;
}

describe("storeImage", () => {
  it("stores the same picture uploaded twice once, and counts it once", async () => {
    const owner = { userId: null, clientId: "browser-twice" };
    const data = await png();
    const first = await stored(data, owner);
    const second = await stored(data, owner);
    // The second adds nothing to the disk (what the daily budgets count).
    expect(second).toEqual({ ...first, newBytes: 0 });
    expect(first.newBytes).toBe(first.bytes);
    expect(first.id).toMatch(/^[0-9a-f]{64}$/);
    expect([first.width, first.height]).toEqual([640, 480]);
    expect(await counts(first.id)).toEqual({ images: 1, uploads: 1 });
    expect(await storageUsed(db, owner)).toBe(first.bytes);
  });

  it("charges bytes = large + small, the id being the large rendition's SHA-256", async () => {
    const { id, bytes } = await stored(await png(), { userId: null, clientId: "browser-bytes" });
    const large = (await getImage(db, id, "large"))!;
    const small = (await getImage(db, id, "small"))!;
    expect(bytes).toBe(large.byteLength + small.byteLength);
    expect(createHash("sha256").update(large).digest("hex")).toBe(id);
  });

  it("stores a picture two owners upload once, and charges each of them", async () => {
    const data = await png();
    const a = { userId: null, clientId: "browser-a" };
    const b = { userId: null, clientId: "browser-b" };
    const image = await stored(data, a);
    await stored(data, b);
    expect(await counts(image.id)).toEqual({ images: 1, uploads: 2 });
    expect(await storageUsed(db, a)).toBe(image.bytes);
    expect(await storageUsed(db, b)).toBe(image.bytes);
  });

  it("counts an account's uploads by its user id, and a browser's without one by its client id", async () => {
    const user = await newUser();
    const other = await newUser();
    const signedIn = { userId: user.id, clientId: "shared-browser" };
    const anonymous = { userId: null, clientId: "shared-browser" };
    const mine = await stored(await png(), signedIn);
    // The same account from another browser: still its storage.
    const alsoMine = await stored(await png(), { userId: user.id, clientId: "phone" });
    const browsers = await stored(await png(), anonymous);
    await stored(await png(), { userId: other.id, clientId: "shared-browser" });

    expect(await storageUsed(db, signedIn)).toBe(mine.bytes + alsoMine.bytes);
    expect(await storageUsed(db, { userId: user.id, clientId: null })).toBe(mine.bytes + alsoMine.bytes);
    expect(await storageUsed(db, anonymous)).toBe(browsers.bytes);
    expect(await storageUsed(db, { userId: null, clientId: "nobody-yet" })).toBe(0);
    const row = await db.selectFrom("image_uploads").selectAll().where("image_id", "=", mine.id).executeTakeFirstOrThrow();
    expect([row.user_id, row.client_id]).toEqual([user.id, null]);
  });

  it("refuses a picture over the owner's storage, and stores nothing", async () => {
    const owner = { userId: null, clientId: "browser-full" };
    const firstData = await png();
    const first = await stored(firstData, owner);
    const before = await counts();
    const refused = await storeImage(db, await png(), owner, first.bytes + 10);
    expect(refused).toEqual({ status: "over-quota", usedBytes: first.bytes, limitBytes: first.bytes + 10 });
    expect(await counts()).toEqual(before);
    expect(await storageUsed(db, owner)).toBe(first.bytes);
    // A picture the owner already has costs nothing, even with the storage full.
    expect(await storeImage(db, firstData, owner, first.bytes)).toEqual({ status: "ok", value: { ...first, newBytes: 0 } });
  });

  it("lets only one of two uploads at once take the last space", async () => {
    const owner = { userId: null, clientId: "browser-race" };
    const [a, b] = [await png(), await png()];
    const one = await stored(await png(), { userId: null, clientId: "browser-measure" });
    const results = await Promise.all([storeImage(db, a, owner, one.bytes + 100), storeImage(db, b, owner, one.bytes + 100)]);
    expect(results.map((result) => result.status).sort()).toEqual(["ok", "over-quota"]);
    expect(await storageUsed(db, owner)).toBeLessThanOrEqual(one.bytes + 100);
  });

  it("refuses what is not a picture, and a picture over 5 MB, storing nothing", async () => {
    const before = await counts();
    const owner = { userId: null, clientId: "browser-bad" };
    expect(await storeImage(db, Buffer.from("plain text called cat.png"), owner, PLENTY)).toEqual({
      status: "invalid",
      message: "Pictures must be PNG, JPEG, WebP or GIF.",
      error: { code: "PICTURE_UNSUPPORTED" },
    });
    const cut = await png();
    expect(await storeImage(db, cut.subarray(0, cut.length - 40), owner, PLENTY)).toEqual({
      status: "invalid",
      message: "This picture could not be read.",
      error: { code: "PICTURE_UNREADABLE" },
    });
    expect(await storeImage(db, new Uint8Array(MAX_UPLOAD_BYTES + 1), owner, PLENTY)).toEqual({ status: "too-large", maxBytes: 5 * 1024 * 1024 });
    expect(await counts()).toEqual(before);
  });
});

describe("storage given back", () => {
  it("counts a picture while a quiz of its owner uses it, or for a day after its upload; deleting the quiz frees it, and the sweep forgets it", async () => {
    // A database of its own: the sweep would otherwise remove the other tests' pictures.
    const own = await openTempDatabase("reclaim");
    const db = own.db;
    const owner = { userId: null, clientId: "reclaim-browser" };
    const t0 = Date.now();
    const used = await storeImage(db, await png(), owner, PLENTY, t0);
    const unused = await storeImage(db, await png(), owner, PLENTY, t0);
    if (used.status !== "ok" || unused.status !== "ok") throw new Error("upload failed");
    const question = QuestionInputSchema.parse({ text: "Who is this?", answers: ["a", "b"], correctAnswerIndex: 0, imageId: used.value.id });
    const quiz = await createQuizWithQuestions(db, { title: "Faces", description: "", timeLimit: 20, isPublic: false }, [question], owner);
    if (quiz.status !== "ok") throw new Error(quiz.status);
    expect(await storageUsed(db, owner, t0 + 1)).toBe(used.value.bytes + unused.value.bytes);
    const dayLater = t0 + UNSAVED_PICTURE_GRACE_MS + 1;
    expect(await storageUsed(db, owner, dayLater)).toBe(used.value.bytes);
    expect(await purgeUnusedImages(db, dayLater)).toBe(1);
    expect(await imagesExist(db, [used.value.id, unused.value.id])).toEqual(new Set([used.value.id]));

    await deleteQuiz(db, quiz.value.id, owner);
    expect(await storageUsed(db, owner, dayLater)).toBe(0);
    expect(await purgeUnusedImages(db, dayLater)).toBe(1);
    expect(await getImage(db, used.value.id, "large")).toBeUndefined();
    await own.remove();
  });
});

describe("getImage and imagesExist", () => {
  it("returns both renditions as WebP", async () => {
    const { id } = await stored(await png(undefined, 3000, 2000), { userId: null, clientId: "browser-sizes" });
    const large = await sharp((await getImage(db, id, "large"))!).metadata();
    const small = await sharp((await getImage(db, id, "small"))!).metadata();
    expect([large.format, large.width, large.height]).toEqual(["webp", 1600, 1067]);
    expect([small.format, small.width, small.height]).toEqual(["webp", 480, 320]);
  });

  it("finds nothing under an unknown or malformed id", async () => {
    expect(await getImage(db, "0".repeat(64), "large")).toBeUndefined();
    expect(await getImage(db, "../../etc/passwd", "small")).toBeUndefined();
    const { id } = await stored(await png(), { userId: null, clientId: "browser-exists" });
    expect(await imagesExist(db, [id, "f".repeat(64), "nope", id])).toEqual(new Set([id]));
    expect(await imagesExist(db, [])).toEqual(new Set());
  });
});

describe("POST /api/images and GET /images/:id", () => {
  const logger = createLogger({ level: "silent" });
  const sessionSecret = "images-test-session-secret-0123456789-0123456789";
  const lifted = testLimits();
  afterAll(() => lifted.close());
  const diskSpace = new DiskSpace(".", 0);
  // Uploads take a slot for heavy work (no worker thread: sharp runs in libuv's pool).
  const heavyWork = new HeavyWork({}, { file: path.resolve("build/node/heavy-worker.js") }, logger);
  const context = (limits = lifted) => ({ db, hub: null as any, sessionSecret, clientIp: "127.0.0.1", limits, logger, diskSpace, heavyWork });
  /** Uploads need a session (issue 26): a guest's, unless a test gives its own cookie. */
  let guestCookie = "";
  beforeAll(async () => {
    const guest = await createGuest(db);
    guestCookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
  });

  function upload(file: Blob | null, headers: Record<string, string> = { cookie: guestCookie }, limits = lifted) {
    const form = new FormData();
    form.set("note", "ignored");
    if (file) form.set("image", file, "picture.png");
    const request = new Request("http://localhost/api/images", { method: "POST", body: form, headers });
    return uploadApi.action({ request, params: {}, context: context(limits) } as any);
  }

  function fetchImage(id: string, query = "", headers: Record<string, string> = {}) {
    const request = new Request(`http://localhost/images/${id}${query}`, { headers });
    return imageRoute.loader({ request, params: { id }, context: context() } as any);
  }

  it("refuses an upload without a session with 401: a client id, which any caller makes up, buys no storage", async () => {
    const anonymous: Record<string, string>[] = [{}, { cookie: "quiz_client_id=browser-no-session" }, { "x-client-id": "browser-no-session" }];
    for (const headers of anonymous) {
      const response = await upload(new Blob([new Uint8Array(await png())], { type: "image/png" }), headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in or continue as a guest to upload pictures.", code: "PICTURES_NEED_SESSION" });
    }
    expect(await storageUsed(db, { userId: null, clientId: "browser-no-session" })).toBe(0);
  });

  it("stores a guest's upload and answers 201 with its URLs, charged to the guest", async () => {
    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const response = await upload(new Blob([new Uint8Array(await png(undefined, 2400, 1200))], { type: "image/png" }), { cookie });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 1600,
      height: 800,
      bytes: expect.any(Number),
      url: `/images/${body.id}`,
      smallUrl: `/images/${body.id}?size=small`,
    });
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await storageUsed(db, { userId: guest.id, clientId: null })).toBe(body.bytes);
  });

  it("charges a signed-in uploader's account", async () => {
    const user = await newUser("premium");
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), user.id)).split(";")[0];
    const response = await upload(new Blob([new Uint8Array(await png())]), { cookie: `${cookie}; quiz_client_id=browser-signed-in` });
    expect(response.status).toBe(201);
    const { bytes } = await response.json();
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await storageUsed(db, { userId: user.id, clientId: null })).toBe(bytes);
    expect(await storageUsed(db, { userId: null, clientId: "browser-signed-in" })).toBe(0);
  });

  it("serves the large and small renditions with immutable caching, and 304 to a matching If-None-Match", async () => {
    const { id } = await stored(await png(undefined, 2000, 1000), { userId: null, clientId: "browser-served" });
    const large = await fetchImage(id);
    expect(large.status).toBe(200);
    expect(Object.fromEntries(large.headers)).toMatchObject({
      "content-type": "image/webp",
      "cache-control": "public, max-age=31536000, immutable",
      etag: `"${id}"`,
      "x-content-type-options": "nosniff",
    });
    expect((await sharp(Buffer.from(await large.arrayBuffer())).metadata()).width).toBe(1600);

    const small = await fetchImage(id, "?size=small");
    expect(small.status).toBe(200);
    expect(small.headers.get("etag")).toBe(`"${id}-small"`);
    expect((await sharp(Buffer.from(await small.arrayBuffer())).metadata()).width).toBe(480);

    const cached = await fetchImage(id, "", { "if-none-match": `W/"other", "${id}"` });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    expect(cached.headers.get("etag")).toBe(`"${id}"`);
    // The small rendition's tag does not stand for the large one.
    expect((await fetchImage(id, "", { "if-none-match": `"${id}-small"` })).status).toBe(200);
  });

  it("answers 404 for an unknown or malformed id, or an unknown size", async () => {
    const { id } = await stored(await png(), { userId: null, clientId: "browser-404" });
    expect((await fetchImage("a".repeat(64))).status).toBe(404);
    expect((await fetchImage("a".repeat(64), "", { "if-none-match": "*" })).status).toBe(404);
    expect((await fetchImage("not-an-id")).status).toBe(404);
    expect((await fetchImage(id.toUpperCase())).status).toBe(404);
    expect((await fetchImage(id, "?size=huge")).status).toBe(404);
  });

  it("answers 400 for what is not a picture or no file at all, and 415 for a body that is not multipart", async () => {
    const text = await upload(new Blob(["hello, I am a text file called cat.png"], { type: "image/png" }));
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({
      error: "Pictures must be PNG, JPEG, WebP or GIF.",
      // The message's code in the errors catalog, for the quiz editor to show it in the reader's language.
      code: "PICTURE_UNSUPPORTED",
      fieldErrors: { image: ["Pictures must be PNG, JPEG, WebP or GIF."] },
    });
    const none = await upload(null);
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe("Choose a picture to upload.");
    const json = await uploadApi.action({
      request: new Request("http://localhost/api/images", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
      params: {},
      context: context(),
    } as any);
    expect(json.status).toBe(415);
  });

  it("answers 413 for a picture over 5 MB, declared or not", async () => {
    const declared = await uploadApi.action({
      request: new Request("http://localhost/api/images", {
        method: "POST",
        body: "x",
        headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(20 * 1024 * 1024) },
      }),
      params: {},
      context: context(),
    } as any);
    expect(declared.status).toBe(413);
    // A refusal with values carries its code and them, for any client to say it in its language.
    expect(await declared.json()).toEqual({ error: "Pictures can be at most 5 MB.", code: "PICTURE_TOO_LARGE", values: { size: "5 MB" } });
    const streamed = await upload(new Blob([new Uint8Array(MAX_UPLOAD_BYTES + 1)]));
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: "Pictures can be at most 5 MB.", code: "PICTURE_TOO_LARGE", values: { size: "5 MB" } });
  });

  it("answers 409 with the storage used and allowed when the uploader's storage is full", async () => {
    // A guest whose earlier uploads fill its 20 MB but for a few kilobytes.
    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const filler = await fillerImage();
    const nearlyFull = ANONYMOUS_STORAGE_LIMIT_BYTES - 200 * 1024;
    await db.insertInto("image_uploads").values({ image_id: filler, user_id: guest.id, client_id: null, bytes: nearlyFull, created_at: Date.now() }).execute();
    const noisy = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#888", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
      .png()
      .toBuffer();
    const response = await upload(new Blob([new Uint8Array(noisy)]), { cookie });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: "Your pictures use 19.8 MB of your 20 MB. Delete a quiz with pictures or upgrade your plan.",
      code: "STORAGE_FULL",
      values: { used: "19.8 MB", limit: "20 MB" },
    });
    expect(await storageUsed(db, { userId: guest.id, clientId: null })).toBe(nearlyFull);
  });

  it("gives a guest the anonymous storage and an account its plan's", async () => {
    const guest = await createGuest(db);
    const filler = await fillerImage();
    await db
      .insertInto("image_uploads")
      .values({ image_id: filler, user_id: guest.id, client_id: null, bytes: ANONYMOUS_STORAGE_LIMIT_BYTES, created_at: Date.now() })
      .execute();
    const fullGuestCookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    expect((await upload(new Blob([new Uint8Array(await png())]), { cookie: fullGuestCookie })).status).toBe(409);

    const user = await newUser("standard");
    await db
      .insertInto("image_uploads")
      .values({ image_id: filler, user_id: user.id, client_id: null, bytes: STORAGE_LIMIT_BYTES.free, created_at: Date.now() })
      .execute();
    const userCookie = (await startSession(context(), new Request("http://localhost/auth"), user.id)).split(";")[0];
    expect((await upload(new Blob([new Uint8Array(await png())]), { cookie: userCookie })).status).toBe(201);
  });

  it("counts pictures posted with the editor's form (without JavaScript) against the same upload limit", async () => {
    const limits = testLimits({ image: { points: 1, window: 3600, message: "Too many pictures. Try again in {wait}." } });
    const form = new FormData();
    form.set("intent", "add-question");
    form.set("title", "Pictures");
    form.set("questions[0].text", "Q");
    form.set("questions[0].image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "one.png");
    form.set("questions[1].text", "Q2");
    form.set("questions[1].image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "two.png");
    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const request = new Request("http://localhost/create", { method: "POST", body: form, headers: { cookie } });
    const before = await storageUsed(db, { userId: guest.id, clientId: null });
    const result: any = await createRoute.action({ request, params: {}, context: context(limits) } as any);
    expect(result.init?.status).toBe(429);
    expect(result.data.formError.description).toMatch(/^Too many pictures\. Try again in /);
    expect(await storageUsed(db, { userId: guest.id, clientId: null })).toBe(before);
    limits.close();
  });

  it("refuses pictures posted with the editor's form without a session, on each picture's field", async () => {
    const form = new FormData();
    form.set("intent", "add-question");
    form.set("title", "Pictures");
    form.set("questions[0].text", "Q");
    form.set("questions[0].image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "one.png");
    const request = new Request("http://localhost/create", { method: "POST", body: form, headers: { cookie: "quiz_client_id=browser-form-no-session" } });
    const result: any = await createRoute.action({ request, params: {}, context: context() } as any);
    expect(result.init?.status).toBe(400);
    expect(result.data.errors).toEqual({ "questions.0.image": "Sign in or continue as a guest to upload pictures." });
    expect(await storageUsed(db, { userId: null, clientId: "browser-form-no-session" })).toBe(0);
  });

  it("answers 429 over the upload limit of an address", async () => {
    const limits = testLimits({ image: { points: 1, window: 3600, message: "Too many pictures. Try again in {wait}." } });
    expect((await upload(new Blob([new Uint8Array(await png())]), undefined, limits)).status).toBe(201);
    const refused = await upload(new Blob([new Uint8Array(await png())]), undefined, limits);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await refused.json()).error).toMatch(/^Too many pictures\. Try again in \d+ minutes\.$/);
    limits.close();
  });
});
