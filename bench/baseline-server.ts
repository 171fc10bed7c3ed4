/**
 * The floor the game is measured against (forked by bench/run.ts): a bare `ws` server that does
 * nothing but accept sockets and broadcast one message, serialised once, to all of them.
 */
import http from "node:http";
import { WebSocketServer } from "ws";
import type { BaselineCommand, BaselineReport } from "./ipc";

const server = http.createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });

function report(message: BaselineReport): void {
  process.send!(message);
}

/** `{"type":"BROADCAST","payload":{"serverNow":…,"pad":"…"}}`, padded to `bytes`. */
function message(bytes: number): Buffer {
  const bare = JSON.stringify({ type: "BROADCAST", payload: { serverNow: Date.now(), pad: "" } });
  return Buffer.from(bare.replace('"pad":""', `"pad":"${"x".repeat(Math.max(0, bytes - bare.length))}"`));
}

process.on("message", (command: BaselineCommand) => {
  if (command.cmd === "stop") {
    for (const client of wss.clients) client.terminate();
    server.close(() => process.exit(0));
    return;
  }
  const data = message(command.bytes);
  for (const client of wss.clients) client.send(data, { binary: false });
  report({ event: "broadcast", clients: wss.clients.size });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  report({ event: "listening", port: typeof address === "object" && address ? address.port : 0 });
});
