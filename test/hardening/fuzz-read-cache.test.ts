/**
 * The read cache never changes an answer, in depth (contract §6; test/read-cache/support/differential.ts):
 * `FUZZ_SCALE=1` (`npm run test:fuzz`) runs 20 generated sequences of 60 writes with 8 compared
 * reads after each; `npm test` (scale 0) one short sequence. Seeds derive from `FUZZ_SEED`.
 */
import { describe, expect, inject, it } from "vitest";
import { runDifferential } from "../read-cache/support/differential";

const BASE_SEED = inject("fuzzSeed") ?? 20261123;
const SCALE = inject("fuzzScale") ?? 0;
const SEQUENCES = Math.max(1, Math.round(20 * SCALE));
const STEPS = SCALE > 0 ? 60 : 10;

describe("fuzz: the read cache answers as the full path", () => {
  for (let n = 0; n < SEQUENCES; n++) {
    const seed = BASE_SEED * 31 + 1000 + n;
    it(`sequence ${n + 1} of ${SEQUENCES} (seed ${seed}): ${STEPS} writes, 8 reads after each`, async () => {
      const report = await runDifferential(seed, STEPS, 8);
      expect(
        report.failures.join("\n"),
        `replay: FUZZ_SEED=${BASE_SEED} FUZZ_SCALE=${SCALE} npx vitest run --project fuzz test/hardening/fuzz-read-cache.test.ts`,
      ).toBe("");
    }, 600_000);
  }
});
