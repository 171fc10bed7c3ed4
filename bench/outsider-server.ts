/**
 * The outsider's floor (forked by bench/outsider.ts): a bare `ws` server that, whenever its host
 * socket (the one that connects with `?host=1`) sends anything, broadcasts one 400-byte message,
 * serialised once, to every socket, the host's first, as the game's host hears its question before
 * its players. Nothing is stored and nothing is paced: the least a server can do for "next question".
 */
import http from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { BROADCAST_BYTES } from "./baseline";

const server = http.createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });
let host: WebSocket | null = null;

/** `{"type":"BROADCAST","payload":{"round":…,"serverNow":…,"pad":"…"}}`, padded to BROADCAST_BYTES. */
function message(round: number): Buffer {
  const bare = JSON.stringify({ type: "BROADCAST", payload: { round, serverNow: Date.now(), pad: "" } });
  return Buffer.from(bare.replace('"pad":""', `"pad":"${"x".repeat(Math.max(0, BROADCAST_BYTES - bare.length))}"`));
}

wss.on("connection", (socket, request) => {
  if (!request.url?.includes("host=1")) return;
  host = socket;
  socket.on("message", (data) => {
    const round = Number(JSON.parse(data.toString()).round);
    const frame = message(round);
    socket.send(frame, { binary: false });
    for (const client of wss.clients) if (client !== host) client.send(frame, { binary: false });
  });
});

process.on("message", (command: { cmd: "stop" }) => {
  if (command.cmd !== "stop") return;
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send!({ event: "listening", port: typeof address === "object" && address ? address.port : 0 });
});
