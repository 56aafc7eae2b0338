/**
 * Generated malformed requests against the tag routes
 * (tec-reference §1.2 rows 13–14); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { fuzzResource } from "./support/fuzz";

fuzzResource("tags", ["/{id}"]);
