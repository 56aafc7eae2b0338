/**
 * The read cache never changes an answer (contract §6): every anonymous answer of the service as it
 * runs equals the full path's for the same state, through generated sequences of writes (see
 * support/differential.ts). A few short sequences here; `npm run test:fuzz` runs many long ones
 * (test/hardening/fuzz-read-cache.test.ts).
 */
import { describe, expect, inject, it } from "vitest";
import { runDifferential } from "./support/differential";

const BASE_SEED = inject("fuzzSeed") ?? 20261123;

describe("the read cache answers as the full path", () => {
  for (const n of [1, 2, 3]) {
    it(`sequence ${n}: 25 writes, 6 reads after each`, async () => {
      const seed = BASE_SEED + n;
      const report = await runDifferential(seed, 25, 6);
      expect(report.failures.join("\n"), `replay: FUZZ_SEED=${BASE_SEED}`).toBe("");
      expect(report.reads).toBe(150);
    });
  }
});
