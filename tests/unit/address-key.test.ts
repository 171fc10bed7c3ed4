/** Every per-address limit counts an IPv6 client by its network and an IPv4-mapped address as IPv4 (app/limits/address-key.ts). */
import { describe, expect, it } from "vitest";
import { addressKey } from "#app/limits/address-key";

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:cb00:7107", "203.0.113.7"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2:0:0:0:0/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2:0:0:0:0/64"],
    ["2001:DB8:1:2::ffff", "2001:db8:1:2:0:0:0:0/64"],
    ["[2001:db8:1:3::1]", "2001:db8:1:3:0:0:0:0/64"],
    ["fe80::1%eth0", "fe80:0:0:0:0:0:0:0/64"],
    ["::1", "0:0:0:0:0:0:0:0/64"],
    ["", "unknown"],
    [undefined, "unknown"],
    ["not an address", "not an address"],
  ])("%j counts as %j", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it("takes the prefix length it is given, within 0 to 128", () => {
    expect(addressKey("2001:db8:abcd:1234::1", 48)).toBe("2001:db8:abcd:0:0:0:0:0/48");
    expect(addressKey("2001:db8:abcd:1234::1", 56)).toBe("2001:db8:abcd:1200:0:0:0:0/56");
    expect(addressKey("2001:db8::1", 128)).toBe("2001:db8:0:0:0:0:0:1/128");
    expect(addressKey("2001:db8::1", 200)).toBe("2001:db8:0:0:0:0:0:1/128");
  });

  it("gives a key back unchanged, so a key passed through twice stays the same", () => {
    const key = addressKey("2001:db8:1:2::1");
    expect(addressKey(key)).toBe(key);
  });
});
