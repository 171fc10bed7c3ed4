/**
 * The floor the game is measured against (forked by bench/run.ts): a bare `ws` server that does
 * nothing but accept sockets and broadcast one message, serialised once, to all of them, and that
 * answers every message a socket sends with an acknowledgement at once: the floor of an answer's
 * acknowledgement under the same burst of answers (bench/baseline.ts).
 */
import http from "node:http";
import { WebSocketServer } from "ws";
import type { BaselineCommand, BaselineReport } from "./ipc";

const server = http.createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });

function report(message: BaselineReport): void {
  process.send!(message);
}

/** As long as the game's acknowledgement of a choice answer. */
const ECHO = Buffer.from(JSON.stringify({ type: "ECHO", payload: { questionNumber: 1, answerIndex: 0 } }));

wss.on("connection", (socket) => socket.on("message", () => socket.send(ECHO, { binary: false })));

/** `{"type":"BROADCAST","payload":{"serverNow":…,"echoWindowMs":…,"pad":"…"}}`, padded to `bytes`. */
function message(bytes: number, echoWindowMs: number): Buffer {
  const bare = JSON.stringify({ type: "BROADCAST", payload: { serverNow: Date.now(), echoWindowMs, pad: "" } });
  return Buffer.from(bare.replace('"pad":""', `"pad":"${"x".repeat(Math.max(0, bytes - bare.length))}"`));
}

process.on("message", (command: BaselineCommand) => {
  if (command.cmd === "stop") {
    for (const client of wss.clients) client.terminate();
    server.close(() => process.exit(0));
    return;
  }
  const data = message(command.bytes, command.echoWindowMs ?? 0);
  for (const client of wss.clients) client.send(data, { binary: false });
  report({ event: "broadcast", clients: wss.clients.size });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  report({ event: "listening", port: typeof address === "object" && address ? address.port : 0 });
});
