/**
 * Issue 9 item 1 — generated malformed requests against the category and tag routes
 * (tec-reference §1.2 rows 11–14); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { route } from "./support/routes";

for (const base of ["categories", "tags"]) {
  describe(`fuzz: /${base}`, () => fuzzRoute(route(`ns /${base}`), METHODS, { hostile: 1000 }));
  describe(`fuzz: /${base}/{id}`, () => fuzzRoute(route(`ns /${base}/{id}`), METHODS));
}
