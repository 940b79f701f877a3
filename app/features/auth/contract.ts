import { z } from "~/platform/zod";
import { oneLineString } from "~/platform/text-fields";

/**
 * What crosses the wire at sign-in, shared by the login form (browser), the page's action
 * (the form posted without JavaScript) and POST /api/auth/login. Browser-safe: no server code.
 */

const MAX_CREDENTIAL_LENGTH = 200;

function credentials<K extends "member" | "staff">(kind: z.ZodType<K>, user: string, secret: string) {
  const required = (label: string) => `${label} is required`;
  return z.object({
    kind,
    username: oneLineString(user, required(user)).trim().min(1, required(user)).max(MAX_CREDENTIAL_LENGTH),
    password: oneLineString(secret, required(secret)).min(1, required(secret)).max(MAX_CREDENTIAL_LENGTH),
  });
}

/**
 * A member signs in with the certificate number and birthdate (the spec's API sends no kind,
 * so member is the default); staff with username and password. Each kind names its own fields
 * in its messages.
 */
export const loginSchema = z.discriminatedUnion("kind", [
  credentials(z.literal("member").default("member"), "Certificate number", "Birthdate"),
  credentials(z.literal("staff"), "Username", "Password"),
]);
export type LoginInput = z.output<typeof loginSchema>;
export type LoginKind = LoginInput["kind"];

/** The spec's failure messages of the login screen. */
export const LOGIN_FAILED = "Login failed";
export const LOGIN_FAILED_RETRY = "Login failed. Please try again.";
