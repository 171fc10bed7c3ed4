import net from "node:net";

/**
 * A loopback port nothing listens on, for a child process that must be told its port up front. The
 * system hands it out, so it never collides with a port another test holds; a guess from a range
 * can (tests/integration/container.test.ts once guessed a port an outgoing connection had).
 */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
