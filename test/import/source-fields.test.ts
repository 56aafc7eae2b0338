/**
 * The fields imports write to keep their source's data: the cost's currency
 * (`currency_symbol`, `currency_position`, `currency_code`, shown in `cost_details`) and
 * `global_id_lineage` on events, venues and organizers (tec-reference §4.1), plus the post `date`.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";

const base = { title: "Gig", start_date: "2026-12-05 19:00:00", end_date: "2026-12-05 21:00:00" };

describe("currency fields", () => {
  it("keep what is sent, over what the cost string says; omitted, the cost decides (§8.2)", async () => {
    const made = await api(`${NS}/events`, {
      headers: ADMIN,
      json: {
        ...base,
        cost: ["0", "20"],
        currency_symbol: "€",
        currency_position: "postfix",
        currency_code: "eur",
      },
    });
    expect(made.status).toBe(201);
    expect(made.body.cost).toBe("Free – 20€");
    expect(made.body.cost_details).toEqual({
      currency_symbol: "€",
      currency_code: "EUR",
      currency_position: "postfix",
      values: ["0", "20"],
    });
    // A later cost alone re-reads symbol and position from the text; the code stays.
    const edited = await api(`${NS}/events/${made.body.id}`, {
      method: "PUT",
      headers: ADMIN,
      json: { cost: "$15" },
    });
    expect(edited.body.cost_details).toMatchObject({
      currency_symbol: "$",
      currency_position: "prefix",
      currency_code: "EUR",
    });
    const cleared = await api(`${NS}/events/${made.body.id}`, {
      method: "PUT",
      headers: ADMIN,
      json: { currency_symbol: "", currency_position: "", currency_code: "" },
    });
    expect(cleared.body.cost_details).toMatchObject({
      currency_symbol: "",
      currency_code: "",
      currency_position: "",
    });
  });

  it("refuse bad values with rest_invalid_param naming each", async () => {
    const res = await api(`${NS}/events`, {
      headers: ADMIN,
      json: { ...base, currency_symbol: "US$1", currency_position: "left", currency_code: "EURO" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_param");
    expect(Object.keys(res.body.data.params).sort()).toEqual([
      "currency_code",
      "currency_position",
      "currency_symbol",
    ]);
    expect(res.body.data.params.currency_position).toBe(
      "currency_position is not one of prefix, postfix.",
    );
  });
});

describe("global_id_lineage", () => {
  it("is kept on events, venues and organizers after the post's own global id", async () => {
    const event = await api(`${NS}/events`, {
      headers: ADMIN,
      json: {
        ...base,
        global_id_lineage: ["old.example?id=7", "older.example?id=3", "old.example?id=7"],
        date_utc: "2019-03-04 05:06:07",
      },
    });
    expect(event.status).toBe(201);
    expect(event.body.global_id_lineage).toEqual([
      event.body.global_id,
      "old.example?id=7",
      "older.example?id=3",
    ]);
    expect(event.body).toMatchObject({
      date: "2019-03-04 05:06:07",
      date_utc: "2019-03-04 05:06:07",
    });
    for (const kind of ["venue", "organizer"]) {
      const made = await api(`${NS}/${kind}s`, {
        headers: ADMIN,
        json: { [kind]: `A ${kind}`, global_id_lineage: "old.example?id=9" },
      });
      expect(made.status).toBe(201);
      expect(made.body.global_id_lineage).toEqual([made.body.global_id, "old.example?id=9"]);
      const edited = await api(`${NS}/${kind}s/${made.body.id}`, {
        method: "PUT",
        headers: ADMIN,
        json: { global_id_lineage: [] },
      });
      expect(edited.body.global_id_lineage).toEqual([made.body.global_id]);
    }
  });

  it("refuses ids with whitespace or commas inside a list, and non-lists", async () => {
    for (const bad of [
      ["a b"],
      [12],
      { x: 1 },
      Array.from({ length: 51 }, (_, i) => `s?id=${i}`),
    ]) {
      const res = await api(`${NS}/events`, {
        headers: ADMIN,
        json: { ...base, global_id_lineage: bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(Object.keys(res.body.data.params)).toEqual(["global_id_lineage"]);
    }
  });

  it("may be written by editors, not by authors (importers match on it)", async () => {
    const author = await seedUser("author");
    const editor = await seedUser("editor");
    const own = await api(`${NS}/events`, { headers: author.headers, json: base });
    expect(own.status).toBe(201);
    for (const [path, json] of [
      [`${NS}/events`, { ...base, global_id_lineage: ["x.example?id=1"] }],
      [`${NS}/events/${own.body.id}`, { global_id_lineage: ["x.example?id=1"] }],
      [`${NS}/events`, { ...base, venue: { venue: "Hall", global_id_lineage: "x.example?id=2" } }],
      [`${NS}/venues`, { venue: "Hall", global_id_lineage: "x.example?id=2" }],
      [`${NS}/organizers`, { organizer: "Org", global_id_lineage: "x.example?id=3" }],
    ] as const) {
      const res = await api(path, { headers: author.headers, json });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe("rest_forbidden");
    }
    const allowed = await api(`${NS}/events/${own.body.id}`, {
      method: "PUT",
      headers: editor.headers,
      json: { global_id_lineage: ["x.example?id=1"] },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.global_id_lineage[1]).toBe("x.example?id=1");
  });

  it("is documented in the namespace index and /doc", async () => {
    const index = await api(NS);
    const create = index.body.routes["/tribe/events/v1/events"].endpoints.find((e: any) =>
      e.methods.includes("POST"),
    );
    for (const name of [
      "global_id_lineage",
      "currency_code",
      "currency_symbol",
      "currency_position",
    ])
      expect(create.args[name]?.description, name).toBeTruthy();
    const de = await api(`/de${NS}/doc`);
    const body =
      de.body.paths["/events"].post.requestBody.content["application/json"].schema.properties;
    expect(body.currency_code.description).toMatch(/Währungscode/);
    expect(body.global_id_lineage.description).toMatch(/Redakteure/);
  });
});
