/**
 * Generated malformed requests against the category routes
 * (tec-reference §1.2 rows 11–12); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { fuzzResource } from "./support/fuzz";

fuzzResource("categories", ["/{id}"]);
