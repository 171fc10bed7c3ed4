/**
 * One production server per Playwright worker, with its own fresh database and its own fake OpenAI and
 * Stripe, so specs on different workers share no state: not the demo quizzes, not the per-address
 * limits, not the accounts, not the fakes' recorded sessions (docs/decisions/0049-ten-minute-test-loop.md).
 * It runs the build as `npm run serve` does (`npm test` builds first).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/openai";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";

export interface WorkerServer {
  baseURL: string;
  stop(): Promise<void>;
}

/** The server's environment for the browser tests: everything but where it listens and what it talks to. */
export function e2eServerEnv(options: { port: number; databasePath: string; openAiBaseURL: string; stripeApiBase: string }): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    DATABASE_PATH: options.databasePath,
    SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
    // Shorter pauses between screens keep the journey quick; the texts are the same.
    RESULTS_DELAY_MS: "1500",
    NEXT_QUESTION_SECONDS: "3",
    OPENAI_BASE_URL: options.openAiBaseURL,
    OPENAI_API_KEY: "e2e-test-key",
    OPENAI_MODEL: "e2e-model",
    STRIPE_SECRET_KEY: "sk_test_e2e",
    STRIPE_WEBHOOK_SECRET: "whsec_e2e",
    STRIPE_PRICE_STANDARD: "price_e2e_standard",
    STRIPE_API_BASE: options.stripeApiBase,
    // Every browser here is 127.0.0.1: the per-address creation limits are tested elsewhere
    // (tests/integration/abuse-limits.test.ts), so here they are set far above the suite's needs.
    GUEST_LIMIT_PER_IP: "1000",
    REGISTER_LIMIT_PER_IP: "1000",
    AI_LIMIT_PER_IP: "1000",
    QUIZ_LIMIT_PER_IP: "1000",
    QUESTION_LIMIT_PER_IP: "100000",
    GAME_LIMIT_PER_IP: "1000",
    // The suite's unknown codes and team lists all come from this one address (tested in tests/integration/limits-mean-what-they-say.test.ts).
    CODE_LOOKUP_FAILURES_PER_IP: "100000",
    TEAMS_LIMIT_PER_IP: "100000",
  };
}

const STARTUP_TIMEOUT_MS = 60_000;

/**
 * The address the server listens on, from its `server_started` log line: it listens on port 0, so the
 * system picks a port no one holds (a port chosen first and bound later was once taken in between by
 * another process's outgoing connection). Rejects if the server exits first or the time runs out.
 */
async function addressOf(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The e2e server exited (${child.exitCode ?? child.signalCode}) before it listened:\n${output()}`);
    }
    // Whole lines only: the last may still be arriving.
    for (const line of output().split("\n").slice(0, -1)) {
      if (!line.includes('"server_started"')) continue;
      const { url } = JSON.parse(line) as { url: string };
      return url;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The e2e server did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output()}`);
}

export async function startWorkerServer(): Promise<WorkerServer> {
  const fakes: { openAi?: FakeOpenAI; stripe?: FakeStripe } = {};
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-e2e-"));
  let child: ChildProcess | undefined;
  const closeFakes = async () => {
    await fakes.openAi?.close();
    await fakes.stripe?.close();
  };
  try {
    fakes.openAi = await startFakeOpenAI(0);
    fakes.stripe = await startFakeStripe(0);
    const env = e2eServerEnv({
      port: 0,
      databasePath: path.join(directory, "quiz.sqlite"),
      openAiBaseURL: fakes.openAi.baseURL,
      stripeApiBase: fakes.stripe.apiBase,
    });
    child = spawn(process.execPath, ["build/node/server.js"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on("data", keep);
    // The server's own errors reach the run's output, as Playwright's webServer showed them.
    child.stderr!.on("data", (chunk: Buffer) => {
      keep(chunk);
      process.stderr.write(chunk);
    });
    const baseURL = await addressOf(child, () => output);
    const running = child;
    return {
      baseURL,
      async stop() {
        if (running.exitCode === null && running.signalCode === null) {
          const exited = new Promise((resolve) => running.once("exit", resolve));
          running.kill("SIGTERM");
          await exited;
        }
        await closeFakes();
        fs.rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill("SIGKILL");
    await closeFakes();
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
