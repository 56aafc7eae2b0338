/**
 * `npm start -- --persist-to DIR` (global-setup.ts starts the service so): the local D1 database and
 * the KV strings live in DIR, which wrangler's `--persist-to` lays out as `v3/d1` and `v3/kv`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { get, NS, show } from "./support/http";

describe("npm start -- --persist-to DIR", () => {
  it("keeps the service's D1 and KV in DIR", async () => {
    const dir = inject("e2ePersistTo");
    expect(existsSync(path.join(dir, "v3", "d1"))).toBe(true);
    expect(existsSync(path.join(dir, "v3", "kv"))).toBe(true);
    // The strings loaded there are the ones the service answers with (German messages).
    const answer = await get(`/de${NS}/events/0`);
    expect(answer.status, show(answer)).toBe(404);
    expect(answer.body.message).not.toBe("Event with ID 0 does not exist.");
  });
});
