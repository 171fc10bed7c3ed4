import { describe, expect, it } from "vitest";
import { googleError, googleErrorMessage, googleUsername, pickUsername } from "#app/auth/google-errors";

describe("googleErrorMessage", () => {
  it.each([
    ["auth/unauthorized-domain", "This domain is not authorized for Google login. Please use email/password login instead."],
    ["auth/popup-blocked", "Popup was blocked. Please allow popups and try again."],
    ["auth/popup-closed-by-user", "Login was cancelled. Please try again."],
    ["auth/cancelled-popup-request", "Login was cancelled. Please try again."],
    ["auth/network-request-failed", "Network error. Please check your connection and try again."],
    ["auth/invalid-api-key", "Google login requires Firebase configuration. Please use email/password login or contact support."],
    ["auth/operation-not-allowed", "Google login failed. Please try email/password login."],
    ["auth/internal-error", "Google login failed. Please try email/password login."],
    ["something-else", "Google login failed. Please try email/password login."],
    ["toString", "Google login failed. Please try email/password login."],
    ["", "Google login failed. Please try email/password login."],
    [undefined, "Google login failed. Please try email/password login."],
  ])("maps %j to its message (docs/product.md#messages)", (code, message) => {
    expect(googleErrorMessage(code)).toBe(message);
  });
});

describe("googleError", () => {
  it.each([
    ["auth/unauthorized-domain", "GOOGLE_UNAUTHORIZED_DOMAIN"],
    ["auth/popup-blocked", "GOOGLE_POPUP_BLOCKED"],
    ["auth/popup-closed-by-user", "GOOGLE_CANCELLED"],
    ["auth/network-request-failed", "GOOGLE_NETWORK_ERROR"],
    ["auth/internal-error", "GOOGLE_LOGIN_FAILED"],
    [undefined, "GOOGLE_LOGIN_FAILED"],
  ])("raises %j with its code beside its English (docs/decisions/0047-errors-as-codes.md)", (code, errorCode) => {
    expect(googleError(code)).toEqual({ english: googleErrorMessage(code), error: { code: errorCode } });
  });

  it("leaves a missing configuration to the account catalog", () => {
    expect(googleError("auth/invalid-api-key")).toEqual({ english: googleErrorMessage("auth/invalid-api-key"), error: null });
  });
});

describe("googleUsername (docs/product.md#http-api)", () => {
  it("uses the display name", () => {
    expect(googleUsername("Ada Lovelace", "ada@example.com")).toBe("Ada Lovelace");
  });

  it("falls back to the part of the email before the @, then to 'user'", () => {
    expect(googleUsername(null, "ada.l@example.com")).toBe("ada.l");
    expect(googleUsername("", "grace@example.com")).toBe("grace");
    expect(googleUsername(undefined, undefined)).toBe("user");
    expect(googleUsername(null, "@example.com")).toBe("user");
  });

  it("cleans characters a username may not hold and keeps it within 30 characters", () => {
    expect(googleUsername("Seán O'Brien 🎉", null)).toBe("Seán OBrien");
    expect(googleUsername("  Ada \t  Lovelace ", null)).toBe("Ada Lovelace");
    expect(googleUsername("A".repeat(40), null)).toHaveLength(30);
    expect(googleUsername("😀😀", "x!@example.com")).toBe("user");
  });

  it("skips a candidate that is too short once cleaned", () => {
    expect(googleUsername("Al", "alan.turing@example.com")).toBe("alan.turing");
    expect(pickUsername(["", "!!", "Bob"])).toBe("Bob");
    expect(pickUsername([])).toBe("user");
  });
});
