/**
 * src/db/shared-params.ts: past D1's 100 bound values, equal values share one numbered parameter,
 * and D1 answers the statement as it would the original.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_BOUND, shareParams } from "../../src/db/shared-params";

describe("shareParams", () => {
  it("leaves a statement within the limit as it is", () => {
    expect(shareParams("SELECT ? + ?", [1, 1])).toBeNull();
  });

  it("numbers the parameters past the limit, equal values (same type) once, quoted ? untouched", () => {
    const values = [...Array.from({ length: MAX_BOUND }, (_, i) => i % 3), "1", 1];
    const query = `SELECT '?' || "a?" || ${values.map(() => "?").join(" + ")} -- ?\n`;
    const shared = shareParams(query, values)!;
    expect(shared.values).toEqual([0, 1, 2, "1"]);
    expect(shared.query.startsWith(`SELECT '?' || "a?" || ?1 + ?2 + ?3 + ?1`)).toBe(true);
    expect(shared.query.endsWith("?4 + ?2 -- ?\n")).toBe(true);
  });

  it("gives D1 the same answer as the values bound one by one would", async () => {
    const values = Array.from({ length: 150 }, (_, i) => (i % 2 ? "x" : i % 5));
    const query = `SELECT column1 FROM (VALUES ${values.map(() => "(?)").join(", ")})`;
    await expect(
      env.DB.prepare(query)
        .bind(...values)
        .raw(),
    ).rejects.toThrow(/too many SQL variables/);
    const shared = shareParams(query, values)!;
    expect(shared.values).toEqual([0, "x", 2, 4, 1, 3]);
    const rows = await env.DB.prepare(shared.query)
      .bind(...shared.values)
      .raw();
    expect(rows.map((r) => r[0])).toEqual(values);
  });

  it("gives up on a query that numbers its own parameters or whose ?s do not match", () => {
    const many = Array.from({ length: MAX_BOUND + 1 }, () => 1);
    expect(shareParams("SELECT ?1", many)).toBeNull();
    expect(shareParams("SELECT ?", many)).toBeNull();
  });
});
