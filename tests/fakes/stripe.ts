/**
 * A stand-in for the parts of Stripe's API that Quiz Night calls, in Stripe's wire format
 * (form-encoded requests, JSON objects with `object`, list envelopes, error envelopes), so the
 * real `stripe` SDK talks to it through STRIPE_API_BASE. It also serves the pages its session
 * urls point to, so a browser sent to "Checkout" lands somewhere. Nothing leaves the machine.
 *
 * Run directly (`tsx tests/fakes/stripe.ts`) it listens on FAKE_STRIPE_PORT for the browser tests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** Form or query parameters as sent, e.g. `line_items[0][price]`. */
  params: Record<string, string>;
  authorization: string | undefined;
}

/** A subscription as Stripe sends it (in a list, a cancellation or a webhook event). */
export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  created: number;
  metadata: Record<string, string>;
  items: {
    object: "list";
    data: {
      id: string;
      object: "subscription_item";
      current_period_start: number;
      current_period_end: number;
      price: { id: string; object: "price"; lookup_key: string | null };
    }[];
  };
  livemode: false;
}

/** A Checkout Session as Stripe sends it. */
export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: string;
  customer: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_status: "paid" | "unpaid";
  status: "open" | "complete" | "expired";
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  livemode: false;
}

export interface FakeStripe {
  /** For STRIPE_API_BASE. */
  apiBase: string;
  requests: RecordedStripeRequest[];
  /** Answer every API call with HTTP 500 while true. */
  failing: boolean;
  /** The Checkout Sessions made, by id. */
  checkoutSessions: Map<string, FakeCheckoutSession>;
  /** The subscriptions Stripe has, by id. */
  subscriptions: Map<string, FakeSubscription>;
  /**
   * What paying on a Checkout page does: the session completes and its customer gets a subscription
   * to its price (carrying the session's subscription_data metadata). Returns both as Stripe would
   * send them in webhook events. Throws for a session that is not open.
   */
  completeCheckout(sessionId: string): { session: FakeCheckoutSession; subscription: FakeSubscription };
  /** A subscription Stripe has for a customer, made some other way (the dashboard, an old Checkout). */
  addSubscription(customer: string, price: { id: string; lookup_key?: string | null }, status?: string, metadata?: Record<string, string>): FakeSubscription;
  close(): Promise<void>;
}

/** Prices findable by lookup key, as an operator who set lookup keys instead of price ids would have. */
const PRICES = [
  { id: "price_lookup_standard", lookup_key: "quiz_night_standard", unit_amount: 499 },
  { id: "price_lookup_premium", lookup_key: "quiz_night_premium", unit_amount: 999 },
];

function stripeError(status: number, type: string, message: string) {
  return { status, body: { error: { type, message, request_log_url: null } } };
}

/** A page of a list as Stripe answers it: `limit` (1-100, default 10) objects after `starting_after`. */
function listPage<T extends { id: string }>(all: T[], params: Record<string, string>, url: string) {
  const limit = Math.min(100, Math.max(1, Number(params.limit ?? 10) || 10));
  const after = params.starting_after ? all.findIndex((item) => item.id === params.starting_after) + 1 : 0;
  const data = all.slice(after, after + limit);
  return { status: 200, body: { object: "list", data, has_more: after + limit < all.length, url } };
}

/** Statuses `GET /v1/subscriptions` leaves out unless asked for (it lists subscriptions that are not cancelled). */
const UNLISTED_STATUSES = new Set(["canceled", "incomplete_expired"]);

export async function startFakeStripe(port = 0): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const sessions = new Map<string, Record<string, string>>();
  const checkoutSessions = new Map<string, FakeCheckoutSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${(++counter).toString().padStart(6, "0")}`;
  let base = "";
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  function addSubscription(customer: string, price: { id: string; lookup_key?: string | null }, status = "active", metadata: Record<string, string> = {}) {
    const created = nowSeconds();
    const id = nextId("sub");
    const subscription: FakeSubscription = {
      id,
      object: "subscription",
      customer,
      status,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created,
      metadata,
      items: {
        object: "list",
        data: [
          {
            id: `si_${id}`,
            object: "subscription_item",
            current_period_start: created,
            current_period_end: created + 30 * 86_400,
            price: { object: "price", lookup_key: null, ...price },
          },
        ],
      },
      livemode: false,
    };
    subscriptions.set(id, subscription);
    return subscription;
  }

  const fake: FakeStripe = {
    apiBase: "",
    requests,
    failing: false,
    checkoutSessions,
    subscriptions,
    completeCheckout(sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (!session || session.status !== "open") throw new Error(`Checkout Session ${sessionId} is not open`);
      const params = sessions.get(sessionId)!;
      const metadata = Object.fromEntries(
        Object.entries(params)
          .filter(([key]) => key.startsWith("subscription_data[metadata]["))
          .map(([key, value]) => [key.slice("subscription_data[metadata][".length, -1), value]),
      );
      const price = PRICES.find((known) => known.id === params["line_items[0][price]"]);
      const subscription = addSubscription(
        session.customer!,
        { id: params["line_items[0][price]"], lookup_key: price?.lookup_key ?? null },
        "active",
        metadata,
      );
      Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscription.id, url: null });
      return { session: { ...session }, subscription: structuredClone(subscription) };
    },
    addSubscription: (customer, price, status, metadata) => structuredClone(addSubscription(customer, price, status, metadata)),
    close: async () => {},
  };

  function handleApi(method: string, pathname: string, params: Record<string, string>): { status: number; body: unknown } {
    const created = Math.floor(Date.now() / 1000);
    const metadataOf = (prefix: string) =>
      Object.fromEntries(
        Object.entries(params)
          .filter(([key]) => key.startsWith(`${prefix}[`))
          .map(([key, value]) => [key.slice(prefix.length + 1, -1), value]),
      );

    if (method === "POST" && pathname === "/v1/customers") {
      return {
        status: 200,
        body: {
          id: nextId("cus"),
          object: "customer",
          email: params.email ?? null,
          name: params.name ?? null,
          metadata: metadataOf("metadata"),
          created,
          livemode: false,
        },
      };
    }
    if (method === "GET" && pathname === "/v1/prices") {
      const keys = Object.entries(params)
        .filter(([key]) => key.startsWith("lookup_keys["))
        .map(([, value]) => value);
      const data = PRICES.filter((price) => keys.length === 0 || keys.includes(price.lookup_key)).map((price) => ({
        ...price,
        object: "price",
        active: true,
        currency: "usd",
        type: "recurring",
        recurring: { interval: "month", interval_count: 1 },
      }));
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/prices" } };
    }
    if (method === "POST" && pathname === "/v1/checkout/sessions") {
      if (!params["line_items[0][price]"]) return stripeError(400, "invalid_request_error", "Missing required param: line_items[0][price].");
      const id = nextId("cs");
      sessions.set(id, params);
      const session: FakeCheckoutSession = {
        id,
        object: "checkout.session",
        mode: params.mode,
        customer: params.customer ?? null,
        client_reference_id: params.client_reference_id ?? null,
        metadata: metadataOf("metadata"),
        payment_status: "unpaid",
        status: "open",
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        url: `${base}/checkout/${id}`,
        created,
        livemode: false,
      };
      checkoutSessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === "GET" && pathname === "/v1/checkout/sessions") {
      const found = [...checkoutSessions.values()]
        .filter((session) => !params.customer || session.customer === params.customer)
        .filter((session) => !params.status || session.status === params.status)
        .reverse(); // newest first, as Stripe lists
      return listPage(found, params, pathname);
    }
    const expired = /^\/v1\/checkout\/sessions\/(\w+)\/expire$/.exec(pathname);
    if (method === "POST" && expired) {
      const session = checkoutSessions.get(expired[1]);
      if (!session) return stripeError(404, "invalid_request_error", `No such checkout.session: '${expired[1]}'`);
      if (session.status !== "open") return stripeError(400, "invalid_request_error", `Only Checkout Sessions with a status in ["open"] can be expired.`);
      Object.assign(session, { status: "expired", url: null });
      return { status: 200, body: session };
    }
    if (method === "GET" && pathname === "/v1/subscriptions") {
      const found = [...subscriptions.values()]
        .filter((subscription) => !params.customer || subscription.customer === params.customer)
        .filter((subscription) =>
          params.status === "all" ? true : params.status ? subscription.status === params.status : !UNLISTED_STATUSES.has(subscription.status),
        )
        .reverse();
      return listPage(found, params, pathname);
    }
    const cancelled = /^\/v1\/subscriptions\/(\w+)$/.exec(pathname);
    if (method === "DELETE" && cancelled) {
      const subscription = subscriptions.get(cancelled[1]);
      if (!subscription) return stripeError(404, "invalid_request_error", `No such subscription: '${cancelled[1]}'`);
      if (subscription.status !== "canceled") Object.assign(subscription, { status: "canceled", canceled_at: created, ended_at: created });
      return { status: 200, body: subscription };
    }
    if (method === "POST" && pathname === "/v1/billing_portal/sessions") {
      const id = nextId("bps");
      sessions.set(id, params);
      return {
        status: 200,
        body: {
          id,
          object: "billing_portal.session",
          customer: params.customer,
          return_url: params.return_url ?? null,
          url: `${base}/portal/${id}`,
          created,
          livemode: false,
        },
      };
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${pathname}).`);
  }

  /** The page a session url opens: enough for a browser test to see where it was sent. */
  function sessionPage(kind: "checkout" | "portal", id: string): string | null {
    const session = sessions.get(id);
    if (!session) return null;
    const back = kind === "checkout" ? session.success_url : session.return_url;
    const heading = kind === "checkout" ? "Fake Stripe Checkout" : "Fake Stripe customer portal";
    return `<!doctype html><link rel="icon" href="data:,"><title>${heading}</title><h1>${heading}</h1><p data-price="${session["line_items[0][price]"] ?? ""}">Session ${id}</p><a href="${back}">Back to Quiz Night</a>`;
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      const page = /^\/(checkout|portal)\/([\w]+)$/.exec(url.pathname);
      if (req.method === "GET" && url.pathname === "/health") return res.writeHead(200).end("ok");
      if (req.method === "GET" && page) {
        const html = sessionPage(page[1] as "checkout" | "portal", page[2]);
        return res.writeHead(html ? 200 : 404, { "content-type": "text/html" }).end(html ?? "Not found");
      }

      const params = Object.fromEntries(req.method === "GET" ? url.searchParams : new URLSearchParams(raw));
      requests.push({ method: req.method ?? "", path: url.pathname, params, authorization: req.headers.authorization });
      const answer = !/^Bearer sk_test_\w+$/.test(req.headers.authorization ?? "")
        ? stripeError(401, "invalid_request_error", "Invalid API Key provided.")
        : fake.failing
          ? stripeError(500, "api_error", "Something went wrong on Stripe's end.")
          : handleApi(req.method ?? "", url.pathname, params);
      res
        .writeHead(answer.status, { "content-type": "application/json", "request-id": "req_fake", "stripe-version": "2026-10-28.endive" })
        .end(JSON.stringify(answer.body));
    });
  });

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.apiBase = base;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const fake = await startFakeStripe(Number(process.env.FAKE_STRIPE_PORT ?? 4312));
  console.log(`Fake Stripe listening at ${fake.apiBase}`);
}
