/**
 * Generated malformed requests against the organizer routes
 * (tec-reference §1.2 rows 8–10); see support/fuzz.ts for what is generated, how many and what is
 * checked.
 */
import { fuzzResource } from "./support/fuzz";

fuzzResource("organizers", ["/{id}", "/by-slug/{slug}"]);
