/**
 * What every per-address limit counts by (docs/decisions/0042-limits-that-mean-what-they-say.md):
 * an IPv4 address as it is, an IPv6 address by its network (its first 64 bits by default, the
 * prefix a home connection or a server is given whole), and an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, how a dual-stack socket sees an IPv4 client) as its IPv4 address. The HTTP
 * limits (server.ts hands it to every loader as `clientIp`) and the game socket's limits
 * (server/socket/upgrade.ts) key through this one function.
 */
import { isIPv4, isIPv6 } from "node:net";

/** The networks counted as one client (IPV6_PREFIX_LENGTH). */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a, b, c, d] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const gap = text.indexOf("::");
  if (gap < 0) return parse(text);
  const head = parse(text.slice(0, gap));
  const rest = parse(text.slice(gap + 2));
  return [...head, ...Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

/**
 * The key an address is counted under: `203.0.113.7`, `2001:db8:1:2::/64` (printed as its eight
 * groups masked to the prefix), `unknown` for none. Anything that is not an address comes back as
 * given, so a key passed through twice stays the same.
 */
export function addressKey(address: string | null | undefined, ipv6PrefixLength = DEFAULT_IPV6_PREFIX_LENGTH): string {
  let text = (address ?? "").trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (text === "") return "unknown";
  if (isIPv4(text) || !isIPv6(text)) return text;
  const groups = ipv6Groups(text.toLowerCase());
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  }
  const prefix = Math.min(128, Math.max(0, Math.floor(ipv6PrefixLength)));
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, prefix - 16 * index));
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((group) => group.toString(16)).join(":")}/${prefix}`;
}
