/**
 * Generated malformed requests against the venue routes
 * (tec-reference §1.2 rows 5–7); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { fuzzResource } from "./support/fuzz";

fuzzResource("venues", ["/{id}", "/by-slug/{slug}"]);
