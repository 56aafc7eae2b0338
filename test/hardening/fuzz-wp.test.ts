/**
 * Generated malformed requests against the wp/v2 subset (contract §3): users,
 * application passwords and media; see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { ROUTES } from "./support/routes";

for (const spec of ROUTES.filter((r) => r.name.startsWith("wp "))) {
  describe(`fuzz: ${spec.name}`, () =>
    fuzzRoute(spec, METHODS, { hostile: spec.name === "wp /users" ? 1000 : 0 }));
}
