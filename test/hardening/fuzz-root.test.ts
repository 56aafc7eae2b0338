/**
 * Generated malformed requests against the namespace index, `/doc` and the iCal
 * feed (tec-reference §1.2 rows 0–1, contract §7); see support/fuzz.ts for what is generated, how
 * many and what is checked.
 */
import { describe } from "vitest";
import { METHODS } from "./support/encode";
import { fuzzRoute } from "./support/fuzz";
import { route } from "./support/routes";

describe("fuzz: / (namespace index)", () => fuzzRoute(route("ns / (index)"), METHODS));
describe("fuzz: /doc", () => fuzzRoute(route("ns /doc"), METHODS));
describe("fuzz: /deleted", () => fuzzRoute(route("ns /deleted"), METHODS, { hostile: 1000 }));
describe("fuzz: /wp-json/ (REST index)", () => fuzzRoute(route("wp-json / (REST index)"), METHODS));
describe("fuzz: /events.ics", () => fuzzRoute(route("ns /events.ics"), METHODS, { hostile: 1000 }));
