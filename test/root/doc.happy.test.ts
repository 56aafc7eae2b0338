import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedCalendar } from "./calendar";
import { validateResponse } from "./openapi-validator";

/** The paths of tec-reference §11.2, in its order. */
const TEC_PATHS = [
  "/doc",
  "/events",
  "/events/{id}",
  "/events/by-slug/{slug}",
  "/venues",
  "/venues/{id}",
  "/venues/by-slug/{slug}",
  "/organizers",
  "/organizers/{id}",
  "/organizers/by-slug/{slug}",
  "/categories",
  "/categories/{id}",
  "/tags",
  "/tags/{id}",
];

function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const n of node) refsOf(n, out);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else refsOf(value, out);
    }
  }
  return out;
}

describe("GET /doc — OpenAPI 3 (tec-reference §11.2, contract §4 row 20)", () => {
  it("is an OpenAPI 3.0 document of every route and method, served for this language's namespace root", async () => {
    const res = await api(`${NS}/doc`);
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(Object.keys(doc)).toEqual(["openapi", "info", "components", "servers", "tags", "paths"]);
    expect(doc.openapi).toBe("3.0.0");
    expect(doc.info).toEqual({
      version: "1.0.0",
      title: "The Events Calendar REST API",
      description:
        "The Events Calendar REST API allows accessing upcoming events information easily and conveniently.",
    });
    expect(doc.servers).toEqual([{ url: `${ORIGIN}${NS}/` }]);
    expect((await api(`/de${NS}/doc`)).body.servers).toEqual([{ url: `${ORIGIN}/de${NS}/` }]);
    for (const name of [
      "Event",
      "Venue",
      "Organizer",
      "Term",
      "Image",
      "DateDetails",
      "CostDetails",
    ])
      expect(doc.components.schemas[name], name).toBeDefined();

    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => TEC_PATHS.includes(p))).toEqual(TEC_PATHS);
    for (const p of ["/events", "/venues", "/organizers", "/categories", "/tags"])
      expect(Object.keys(doc.paths[p]), p).toEqual(["get", "post"]);
    for (const p of TEC_PATHS.filter((p) => p.includes("{")))
      expect(new Set(Object.keys(doc.paths[p])), p).toEqual(
        new Set(["get", "post", "put", "patch", "delete"]),
      );

    for (const ref of refsOf(doc)) {
      const [, , kind, name] = ref.split("/");
      expect(doc.components[kind][name], ref).toBeDefined();
    }
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      const variables = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries<any>(ops)) {
        // WordPress's global parameters (contract §7.7) are shared components.
        expect(op.parameters.filter((p: any) => p.$ref).map((p: any) => p.$ref)).toEqual(
          (method === "get" ? ["_fields", "_embed", "_envelope"] : ["_envelope"]).map(
            (name) => `#/components/parameters/${name}`,
          ),
        );
        const inPath = op.parameters.filter((p: any) => p.in === "path");
        expect(
          inPath.map((p: any) => p.name),
          `${method} ${path}`,
        ).toEqual(variables);
        expect(inPath.every((p: any) => p.required === true)).toBe(true);
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it("takes its parameters from the same argument specs as the namespace index", async () => {
    const [{ body: doc }, { body: index }] = await Promise.all([api(`${NS}/doc`), api(`${NS}/`)]);
    const listArgs = index.routes["/tribe/events/v1/events"].endpoints[0].args;
    const params = doc.paths["/events"].get.parameters.filter((p: any) => !p.$ref);
    expect(params.map((p: any) => p.name)).toEqual(Object.keys(listArgs));
    for (const p of params) expect(p.description, p.name).toBe(listArgs[p.name].description);
    expect(params.find((p: any) => p.name === "categories")).toMatchObject({
      in: "query",
      schema: { type: "array", items: { type: "integer" } },
      style: "form",
      explode: false,
    });
    expect(params.find((p: any) => p.name === "page").schema).toEqual({
      type: "integer",
      default: 1,
    });

    const create = doc.paths["/events"].post;
    // Only WordPress's `_envelope` (contract §7.7): every argument is in the body.
    expect(create.parameters).toEqual([{ $ref: "#/components/parameters/_envelope" }]);
    const form = create.requestBody.content["application/x-www-form-urlencoded"].schema;
    expect(create.requestBody.content["application/json"].schema).toEqual(form);
    expect(form.required).toEqual(["title", "start_date", "end_date"]);
    expect(Object.keys(form.properties)).toEqual(
      Object.keys(index.routes["/tribe/events/v1/events"].endpoints[1].args),
    );
    expect(create.responses["201"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Event",
    });
    expect(
      doc.paths["/events/by-slug/{slug}"].patch.requestBody.content["application/json"].schema
        .properties.slug,
    ).toBeDefined();
  });

  it("describes the payloads as they are sent (quirk 20 fixed)", async () => {
    const { schemas } = (await api(`${NS}/doc`)).body.components;
    expect(
      Object.values<any>(schemas.DateDetails.properties).every((p) => p.type === "string"),
    ).toBe(true);
    expect(schemas.Event.properties.author.type).toBe("string");
    expect(schemas.Event.properties.start_date_details.allOf).toEqual([
      { $ref: "#/components/schemas/DateDetails" },
    ]);
    expect(schemas.Event.properties.cost_details.allOf).toEqual([
      { $ref: "#/components/schemas/CostDetails" },
    ]);
    expect(Object.keys(schemas.CostDetails.properties)).toEqual([
      "currency_symbol",
      "currency_code",
      "currency_position",
      "values",
    ]);
    expect(schemas.CostDetails.properties.values.items).toEqual({ type: "string" });
    expect(schemas.Event.properties.venue.anyOf).toEqual([
      { $ref: "#/components/schemas/Venue" },
      { type: "array", items: {}, maxItems: 0 },
    ]);
    expect(schemas.Event.required).toContain("venue");
    expect(schemas.Venue.required).toEqual([
      "id",
      "show_map",
      "show_map_link",
      "global_id",
      "global_id_lineage",
    ]);
    expect(schemas.Venue.properties.geo_lat.type).toBe("number");
  });
});

describe("GET /doc validates the real responses of every route", () => {
  it("every GET route, anonymous and as administrator, password blanking and paging included", async () => {
    const cal = await seedCalendar();
    const doc = (await api(`${NS}/doc`)).body;
    const check = async (
      path: string,
      template: string,
      init: { headers?: Record<string, string> } = {},
      status = 200,
    ) => {
      const res = await api(`${NS}${path}`, init);
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(status);
      expect(validateResponse(doc, template, "get", status, res.body), path).toEqual([]);
      return res.body;
    };
    const list = await check("/events", "/events");
    expect(list.events.map((e: any) => e.title)).toEqual([
      "Jazz Night",
      "Open Air",
      "Members Only",
    ]);
    expect(list.events[2].all_day).toBeNull(); // blanked: the schema must allow it
    await check("/events", "/events", { headers: ADMIN });
    const first = await check("/events?per_page=1&page=2", "/events");
    expect(first.next_rest_url && first.previous_rest_url).toBeTruthy();
    const single = await check(`/events/${cal.full.id}`, "/events/{id}");
    expect(
      single.json_ld && single.venue.json_ld && single.image.id && single.organizer.length === 2,
    ).toBeTruthy();
    await check(`/events/${cal.protectedEvent}?password=members`, "/events/{id}");
    await check(`/events/by-slug/${cal.full.slug}`, "/events/by-slug/{slug}");
    await check("/venues", "/venues");
    await check(`/venues/${cal.venue.id}`, "/venues/{id}");
    await check(`/venues/${cal.protectedVenue}`, "/venues/{id}");
    await check(`/venues/by-slug/${cal.venue.slug}`, "/venues/by-slug/{slug}");
    await check("/organizers", "/organizers");
    await check(`/organizers/${cal.organizer.id}`, "/organizers/{id}");
    await check(`/organizers/by-slug/${cal.organizer.slug}`, "/organizers/by-slug/{slug}");
    await check("/categories?hide_empty=false", "/categories");
    await check(`/categories/${cal.category}`, "/categories/{id}", { headers: ADMIN });
    await check("/tags", "/tags");
    await check(`/tags/${cal.tag}`, "/tags/{id}");
    // Errors carry the documented envelope.
    await check("/events/99999", "/events/{id}", {}, 404);
    await check("/events?page=0", "/events", {}, 400);
    await check(`/events/${cal.protectedEvent}`, "/events/{id}", {}, 403);
  });

  it("is strict enough to notice a payload that drifts from it", async () => {
    const cal = await seedCalendar();
    const doc = (await api(`${NS}/doc`)).body;
    const event = (await api(`${NS}/events/${cal.full.id}`)).body;
    const drifted = [
      { ...event, author: 1 },
      { ...event, start_date_details: { ...event.start_date_details, year: 2026 } },
      { ...event, cost_details: [event.cost_details] },
      { ...event, venue: null },
      { ...event, ticketed: false },
      { ...event, venue: { ...event.venue, show_map: "1" } },
    ];
    for (const body of drifted)
      expect(validateResponse(doc, "/events/{id}", "get", 200, body).length).toBeGreaterThan(0);
    const { title: _, ...untitled } = event;
    expect(validateResponse(doc, "/events/{id}", "get", 200, untitled).length).toBeGreaterThan(0);
  });

  it("the answers of writes: create, update, trash, permanent delete", async () => {
    const cal = await seedCalendar();
    const doc = (await api(`${NS}/doc`)).body;
    const check = async (
      method: string,
      path: string,
      template: string,
      status: number,
      json?: unknown,
    ) => {
      const res = await api(`${NS}${path}`, { method: method.toUpperCase(), headers: ADMIN, json });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
      expect(
        validateResponse(doc, template, method, status, res.body),
        `${method} ${path}`,
      ).toEqual([]);
      return res.body;
    };
    const event = await check("post", "/events", "/events", 201, {
      title: "Created",
      start_date: day(5),
      end_date: day(5, "11:00:00"),
    });
    await check("patch", `/events/${event.id}`, "/events/{id}", 200, {
      title: "Renamed",
      venue: { venue: "New Place", city: "Berlin" },
    });
    await check("delete", `/events/${event.id}`, "/events/{id}", 200);
    await check("delete", `/events/${event.id}`, "/events/{id}", 410);
    await check("delete", `/events/${event.id}?force=true`, "/events/{id}", 200);
    const venue = await check("post", "/venues", "/venues", 201, {
      venue: "Annex",
      show_map: false,
    });
    await check("put", `/venues/by-slug/${venue.slug}`, "/venues/by-slug/{slug}", 200, {
      city: "Leipzig",
    });
    await check("delete", `/venues/${venue.id}?force=true`, "/venues/{id}", 200);
    await check("delete", `/organizers/${cal.organizer.id}`, "/organizers/{id}", 200);
    const term = await check("post", "/categories", "/categories", 201, {
      name: "Theatre",
      parent: cal.category,
    });
    await check("post", `/categories/${term.id}`, "/categories/{id}", 200, {
      description: "Plays",
    });
    await check("delete", `/categories/${term.id}`, "/categories/{id}", 200);
    await check("post", "/tags", "/tags", 400, { name: "Outdoor" });
  });
});
