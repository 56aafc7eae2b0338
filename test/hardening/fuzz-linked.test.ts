/**
 * Issue 9 item 1 — generated malformed requests against the venue and organizer routes
 * (tec-reference §1.2 rows 5–10); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { route } from "./support/routes";

for (const plural of ["venues", "organizers"]) {
  describe(`fuzz: /${plural}`, () => fuzzRoute(route(`ns /${plural}`), METHODS, { hostile: 1000 }));
  describe(`fuzz: /${plural}/{id}`, () => fuzzRoute(route(`ns /${plural}/{id}`), METHODS));
  describe(`fuzz: /${plural}/by-slug/{slug}`, () =>
    fuzzRoute(route(`ns /${plural}/by-slug/{slug}`), METHODS));
}
