/**
 * The docs/deploy files run as a test runs them (tests/integration/proxy.test.ts for one node behind
 * nginx and Caddy, cluster-proxy.test.ts for three behind nginx and HAProxy): each file read and
 * rendered for the test's ports, the proxy found on the machine, started, waited for and stopped.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/deploy");

export function readDeployFile(name: string): string {
  return fs.readFileSync(path.join(DEPLOY, name), "utf8");
}

/** Replaces `from` in a docs/deploy file, insisting it occurs `count` times: a reworded file fails here, not mysteriously later. */
export function replaceIn(file: string, text: string, from: string, to: string, count = 1): string {
  const found = text.split(from).length - 1;
  if (found !== count)
    throw new Error(`docs/deploy/${file}: expected ${count} × ${JSON.stringify(from)}, found ${found}; update the file or this test's rendering`);
  return text.split(from).join(to);
}

/** A program on PATH or in the sbin folders Debian puts nginx and HAProxy in; null when absent. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin", "/sbin"];
  for (const dir of dirs.filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

export function startChild(program: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd: string }): { child: ChildProcess; output: () => string } {
  const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `url` answers 200 through the proxy (`statusOf` asks it); fails with the proxy's own words if it exits or never does. */
export async function waitUntilServing(url: string, statusOf: (url: string) => Promise<number>, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the proxy exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await statusOf(url)) === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the proxy did not serve ${url} within 15 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A throwaway self-signed certificate and its key in `dir`; the tests' clients do not check it. */
export function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const subject = "/CN=quiz.example.com";
  const args = [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    subject,
    "-keyout",
    key,
    "-out",
    cert,
  ];
  execFileSync(findProgram("openssl")!, args, { stdio: "pipe" });
  return { cert, key };
}

/**
 * nginx with `site` (a rendered docs/deploy file) as its only site, inside a minimal nginx.conf with
 * everything in `dir`; its output and error log together in `log`.
 */
export function runNginxWithSite(dir: string, site: string): { child: ChildProcess; log: () => string } {
  fs.writeFileSync(path.join(dir, "quiz-night.conf"), site);
  // As root (CI containers) nginx would run its workers as nobody, who cannot enter `dir`.
  const main = [
    process.getuid?.() === 0 ? "user root;" : "",
    "worker_processes 1;",
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${dir}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`),
    `  include ${dir}/quiz-night.conf;`,
    "}",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "nginx.conf"), main);
  const errorLog = path.join(dir, "error.log");
  const { child, output } = startChild(
    findProgram("nginx")!,
    ["-p", `${dir}/`, "-c", path.join(dir, "nginx.conf"), "-e", errorLog, "-g", `daemon off; pid ${dir}/nginx.pid;`],
    { cwd: dir },
  );
  return { child, log: () => `${output()}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, "utf8") : ""}` };
}
