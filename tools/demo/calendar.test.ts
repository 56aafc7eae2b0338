import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_PASSWORD_DIGEST } from "./calendar";

describe("the demo calendar", () => {
  it("stores the protected events' password as its SHA-256", () => {
    expect(createHash("sha256").update(DEMO_PASSWORD).digest("hex")).toBe(DEMO_PASSWORD_DIGEST);
  });
});
