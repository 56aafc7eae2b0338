/**
 * Users of every role, made through the API as a client would: `POST /wp/v2/users` as the
 * administrator, then `POST /wp/v2/users/{id}/application-passwords` for a password (contract §3).
 */
import { expect } from "vitest";
import { ADMIN, type Credentials, send, show, WP } from "./http";

export type Role = "administrator" | "editor" | "author" | "contributor" | "subscriber";
/** Who sends a request: nobody, or a user of one of the five roles. */
export type Actor = "anonymous" | Role;
export const ACTORS: Actor[] = [
  "anonymous",
  "subscriber",
  "contributor",
  "author",
  "editor",
  "administrator",
];

export interface Person {
  id: number;
  auth: Credentials;
}

/** The anonymous visitor and one user per role; `tag` keeps usernames apart between files. */
export type People = Record<Actor, Person>;

/**
 * Creates a user with `role` and an application password for them.
 * @throws (a failed expectation) when either request is refused.
 */
export async function createUser(role: Role, username: string): Promise<Person> {
  const user = await send("POST", `${WP}/users`, {
    auth: ADMIN,
    json: {
      username,
      email: `${username}@example.com`,
      password: `pw-${username}-0123456789`,
      roles: [role],
      name: `${role} ${username}`,
    },
  });
  expect(user.status, show(user)).toBe(201);
  const app = await send("POST", `${WP}/users/${user.body.id}/application-passwords`, {
    auth: ADMIN,
    json: { name: "e2e" },
  });
  expect(app.status, show(app)).toBe(201);
  return { id: user.body.id, auth: { username, password: app.body.password } };
}

/** Everyone: anonymous, the administrator (user 1) and a new user of every other role. */
export async function createPeople(tag: string): Promise<People> {
  const people = {
    anonymous: { id: 0, auth: null },
    administrator: { id: 1, auth: ADMIN },
  } as People;
  for (const role of ["editor", "author", "contributor", "subscriber"] as const)
    people[role] = await createUser(role, `${tag}-${role}`);
  return people;
}
