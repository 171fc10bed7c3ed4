/**
 * docs/product.md#validation, login and register: every rule and its exact message, through the schemas the
 * auth action and the auth page's client-side checks share.
 */
import { describe, expect, it } from "vitest";
import { LoginSchema, PASSWORD_MIN_LENGTH, RegisterSchema, USERNAME_MIN_LENGTH } from "#app/schemas/validation";

const VALID_EMAIL = "sam@example.com";
const INVALID_EMAIL = "Please enter a valid email";
const SHORT_PASSWORD = "Password must be at least 6 characters";
const SHORT_USERNAME = "Username must be at least 3 characters";
const MISMATCH = "Passwords don't match";

/** Every message per field, in order. */
function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  const messages: Record<string, string[]> = {};
  for (const issue of result.error!.issues) (messages[String(issue.path[0])] ??= []).push(issue.message);
  return messages;
}

describe("account constants (docs/product.md#validation)", () => {
  it("uses the minimum lengths of docs/product.md#validation", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(USERNAME_MIN_LENGTH).toBe(3);
  });
});

describe("LoginSchema", () => {
  it("accepts a valid email and a 6-character password, lower-casing and trimming the email", () => {
    expect(LoginSchema.parse({ email: "  Sam@Example.COM ", password: "secret" })).toEqual({ email: VALID_EMAIL, password: "secret" });
  });

  it("keeps the password exactly as typed", () => {
    expect(LoginSchema.parse({ email: VALID_EMAIL, password: " pass word " }).password).toBe(" pass word ");
  });

  it.each([
    ["empty", ""],
    ["no @", "sam.example.com"],
    ["no domain", "sam@"],
    ["no local part", "@example.com"],
    ["spaces inside", "sam smith@example.com"],
    ["two @", "sam@@example.com"],
    ["no dot in the domain", "sam@example"],
  ])("refuses an email with %s: 'Please enter a valid email'", (_, email) => {
    expect(messagesOf(LoginSchema.safeParse({ email, password: "secret" }))).toEqual({ email: [INVALID_EMAIL] });
  });

  it.each([
    ["empty", ""],
    ["1 character", "a"],
    ["5 characters", "12345"],
  ])("refuses a password that is %s: 'Password must be at least 6 characters'", (_, password) => {
    expect(messagesOf(LoginSchema.safeParse({ email: VALID_EMAIL, password }))).toEqual({ password: [SHORT_PASSWORD] });
  });

  it("reports both fields at once", () => {
    expect(messagesOf(LoginSchema.safeParse({ email: "nope", password: "123" }))).toEqual({
      email: [INVALID_EMAIL],
      password: [SHORT_PASSWORD],
    });
  });

  it.each([
    ["missing fields", {}],
    ["non-string fields", { email: 42, password: null }],
  ])("gives the messages of docs/product.md#validation for %s", (_, input) => {
    expect(messagesOf(LoginSchema.safeParse(input))).toEqual({ email: [INVALID_EMAIL], password: [SHORT_PASSWORD] });
  });
});

const registration = (change: Record<string, unknown> = {}) => ({
  username: "sam",
  email: VALID_EMAIL,
  password: "secret",
  confirmPassword: "secret",
  ...change,
});

describe("RegisterSchema", () => {
  it("accepts a valid registration, trimming the username and normalising the email", () => {
    expect(RegisterSchema.parse(registration({ username: "  Sam Smith ", email: " SAM@example.com" }))).toEqual({
      username: "Sam Smith",
      email: VALID_EMAIL,
      password: "secret",
      confirmPassword: "secret",
    });
  });

  it.each([
    ["3 characters", "abc", true],
    ["2 characters", "ab", false],
    ["1 character", "a", false],
    ["empty", "", false],
    ["2 characters padded with spaces", "  ab  ", false],
  ])("username of %s", (_, username, ok) => {
    const result = RegisterSchema.safeParse(registration({ username }));
    if (ok) return expect(result.success).toBe(true);
    // The first message is the one shown beside the field.
    const messages = messagesOf(result);
    expect(Object.keys(messages)).toEqual(["username"]);
    expect(messages.username[0]).toBe(SHORT_USERNAME);
  });

  it.each([
    ["empty", ""],
    ["no @", "sam.example.com"],
    ["no domain", "sam@"],
  ])("refuses an email that is %s: 'Please enter a valid email'", (_, email) => {
    expect(messagesOf(RegisterSchema.safeParse(registration({ email })))).toEqual({ email: [INVALID_EMAIL] });
  });

  it.each([
    ["empty", ""],
    ["5 characters", "12345"],
  ])("refuses a password that is %s: 'Password must be at least 6 characters'", (_, password) => {
    const messages = messagesOf(RegisterSchema.safeParse(registration({ password, confirmPassword: password })));
    expect(messages).toEqual({ password: [SHORT_PASSWORD] });
  });

  it.each([
    ["a different password", "secreT"],
    ["an empty confirmation", ""],
    ["the password with a trailing space", "secret "],
  ])("puts 'Passwords don't match' on confirmPassword for %s", (_, confirmPassword) => {
    expect(messagesOf(RegisterSchema.safeParse(registration({ confirmPassword })))).toEqual({ confirmPassword: [MISMATCH] });
  });

  it("accepts a 6-character password that matches its confirmation", () => {
    expect(RegisterSchema.safeParse(registration({ password: "123456", confirmPassword: "123456" })).success).toBe(true);
  });

  it("reports every field's message when all of them are wrong", () => {
    const messages = messagesOf(RegisterSchema.safeParse({ username: "a", email: "x", password: "1", confirmPassword: "2" }));
    expect(messages.username).toEqual([SHORT_USERNAME]);
    expect(messages.email).toEqual([INVALID_EMAIL]);
    expect(messages.password).toEqual([SHORT_PASSWORD]);
  });
});
