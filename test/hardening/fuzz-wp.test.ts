/**
 * Issue 9 item 1 — generated malformed requests against the wp/v2 subset (contract §3): users,
 * application passwords and media, 10,000 per route and method; see support/fuzz.ts.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { ROUTES } from "./support/routes";

for (const spec of ROUTES.filter((r) => r.name.startsWith("wp "))) {
  describe(`fuzz: ${spec.name}`, () =>
    fuzzRoute(spec, METHODS, { hostile: spec.name === "wp /users" ? 1000 : 0 }));
}
