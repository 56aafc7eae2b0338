/**
 * Issue 9 item 1 — generated malformed requests against the event routes (tec-reference §1.2 rows
 * 2–4, contract §5); see support/fuzz.ts for what is generated, how many and what is checked.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { route } from "./support/routes";

describe("fuzz: /events", () => fuzzRoute(route("ns /events"), METHODS, { hostile: 1000 }));
describe("fuzz: /events/{id}", () => fuzzRoute(route("ns /events/{id}"), METHODS));
describe("fuzz: /events/by-slug/{slug}", () =>
  fuzzRoute(route("ns /events/by-slug/{slug}"), METHODS));
