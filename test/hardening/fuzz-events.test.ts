/**
 * Generated malformed requests against the event routes (tec-reference §1.2 rows
 * 2–4, contract §5); see support/fuzz.ts for what is generated, how many and what is checked.
 */
import { fuzzResource } from "./support/fuzz";

fuzzResource("events", ["/{id}", "/by-slug/{slug}"]);
