import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { defaultEndDate, defaultStartDate } from "../../src/events/dates";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import {
  SAMPLE_EVENTS_ARGS,
  SAMPLE_ORIGIN,
  SAMPLE_ROOT_ENTRIES,
  SAMPLE_ROUTES,
} from "./sample-index";

const rehost = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value).replaceAll(SAMPLE_ORIGIN, ORIGIN));

describe("GET / — the namespace index (tec-reference §11.1)", () => {
  it("lists the original's routes in registration order, the index and /doc first, each with its methods", async () => {
    const res = await api(`${NS}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toBe("GET");
    expect(Object.keys(res.body)).toEqual(["namespace", "routes", "_links"]);
    expect(res.body.namespace).toBe("tribe/events/v1");
    expect(res.body._links).toEqual({ up: [{ href: `${ORIGIN}/wp-json/` }] });

    const ours = Object.keys(res.body.routes);
    const theirs = Object.keys(SAMPLE_ROUTES);
    expect(ours.slice(0, 2)).toEqual(["/tribe/events/v1", "/tribe/events/v1/doc"]);
    // Routes the contract adds (events.ics, deleted) may sit between; TEC's keep their order.
    expect(ours.filter((r) => theirs.includes(r))).toEqual(theirs);
    for (const [route, sample] of Object.entries(SAMPLE_ROUTES)) {
      const entry = res.body.routes[route];
      expect(entry.namespace, route).toBe("tribe/events/v1");
      expect(entry.methods, route).toEqual(sample.methods);
      expect(
        entry.endpoints.map((e: { methods: string[] }) => e.methods),
        route,
      ).toEqual(sample.endpoints);
      expect("_links" in entry, route).toBe(sample.links);
      expect(Object.keys(entry), route).toEqual(
        sample.links
          ? ["namespace", "methods", "endpoints", "_links"]
          : ["namespace", "methods", "endpoints"],
      );
    }
  });

  it("describes / and /doc exactly as the original does (no args → [])", async () => {
    const res = await api(`${NS}`);
    expect(res.body.routes["/tribe/events/v1"]).toEqual(
      rehost(SAMPLE_ROOT_ENTRIES["/tribe/events/v1"]),
    );
    expect(res.body.routes["/tribe/events/v1/doc"]).toEqual(
      rehost(SAMPLE_ROOT_ENTRIES["/tribe/events/v1/doc"]),
    );
    expect(res.body.routes["/tribe/events/v1/events"]._links).toEqual({
      self: [{ href: `${ORIGIN}${NS}/events` }],
    });
  });

  it("shows the GET /events arguments of the original, with defaults computed for this request and required last", async () => {
    const before = DateTime.utc();
    const res = await api(`${NS}/`);
    const args = res.body.routes["/tribe/events/v1/events"].endpoints[0].args;
    for (const [name, sample] of Object.entries(SAMPLE_EVENTS_ARGS) as Array<
      [string, Record<string, unknown>]
    >) {
      const arg = args[name];
      expect(arg, name).toBeDefined();
      expect(new Set(Object.keys(arg)), name).toEqual(new Set(Object.keys(sample)));
      expect(Object.keys(arg).at(-1), name).toBe("required");
      for (const key of ["type", "format", "items", "required"])
        expect(arg[key], `${name}.${key}`).toEqual(sample[key]);
      // TEC's "Requires Events Calendar Pro." does not hold here: geolocation is built in (contract §4).
      expect(arg.description, name).toBe(
        String(sample.description).replace("Requires Events Calendar Pro. ", ""),
      );
    }
    expect(args.page.default).toBe(1);
    expect(args.per_page.default).toBe(12); // PER_PAGE_DEFAULT, contract §4 row 1
    expect(args.strict_dates.default).toBe("false");
    expect(args.start_date.default).toBe(defaultStartDate("UTC", before));
    const end = DateTime.fromFormat(args.end_date.default, "yyyy-MM-dd HH:mm:ss", { zone: "utc" });
    expect(
      Math.abs(
        end
          .diff(DateTime.fromFormat(defaultEndDate(before), "yyyy-MM-dd HH:mm:ss", { zone: "utc" }))
          .as("seconds"),
      ),
    ).toBeLessThan(5);
    // The contract's additions are documented too.
    for (const added of ["geoloc_radius", "modified_after", "uid", "password"])
      expect(args[added]?.description, added).toBeTruthy();
  });

  it("takes the defaults of the site's settings and the links of the request's language", async () => {
    const res = await api(`/de${NS}`);
    expect(res.body._links.up[0].href).toBe(`${ORIGIN}/de/wp-json/`);
    expect(res.body.routes["/tribe/events/v1/venues"]._links.self[0].href).toBe(
      `${ORIGIN}/de${NS}/venues`,
    );
    expect(res.body.routes["/tribe/events/v1/venues"].endpoints[0].args.per_page.default).toBe(12);
  });

  it("lists the create arguments with their requirements, and edit arguments all optional", async () => {
    const { body } = await api(`${NS}/`);
    const create = body.routes["/tribe/events/v1/events"].endpoints[1].args;
    expect(
      Object.entries(create)
        .filter(([, a]: [string, any]) => a.required)
        .map(([n]) => n),
    ).toEqual(["title", "start_date", "end_date"]);
    const edit = body.routes["/tribe/events/v1/events/(?P<id>\\d+)"].endpoints[2].args;
    expect(
      Object.entries(edit)
        .filter(([, a]: [string, any]) => a.required)
        .map(([n]) => n),
    ).toEqual(["id"]);
    expect(body.routes["/tribe/events/v1/categories"].endpoints[1].args.name).toMatchObject({
      type: "string",
      required: true,
    });
    expect(body.routes["/tribe/events/v1/tags"].endpoints[0].args.parent).toBeUndefined();
  });
});

describe("OPTIONS on a route (tec-reference §1.2 notes)", () => {
  it("answers the route's index entry, with the route's Allow header for this user", async () => {
    const { body: index } = await api(`${NS}/`);
    const anonymous = await api(`${NS}/events/123`, { method: "OPTIONS" });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual(index.routes["/tribe/events/v1/events/(?P<id>\\d+)"]);
    expect(anonymous.headers.get("allow")).toBe("GET");
    const admin = await api(`${NS}/events/by-slug/anything`, { method: "OPTIONS", headers: ADMIN });
    expect(admin.body.methods).toEqual(["GET", "DELETE", "POST", "PUT", "PATCH"]);
    expect(admin.headers.get("allow")).toBe("GET, DELETE, POST, PUT, PATCH");
    const archive = await api(`${NS}/categories`, { method: "OPTIONS" });
    expect(archive.body).toEqual(index.routes["/tribe/events/v1/categories"]);
    const root = await api(`${NS}`, { method: "OPTIONS" });
    expect(root.body).toEqual(index.routes["/tribe/events/v1"]);
  });

  it("describes the wp/v2 routes too, under their own namespace", async () => {
    const me = await api("/wp-json/wp/v2/users/me", { method: "OPTIONS" });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      namespace: "wp/v2",
      methods: ["GET", "POST", "PUT", "PATCH"],
      _links: { self: [{ href: `${ORIGIN}/wp-json/wp/v2/users/me` }] },
    });
    expect(me.body.endpoints[1].args.id).toBeUndefined(); // the path id of /users/{id} is not an argument here
    const media = await api("/de/wp-json/wp/v2/media/7", { method: "OPTIONS" });
    expect(media.body).toEqual({
      namespace: "wp/v2",
      methods: ["GET"],
      endpoints: [
        {
          methods: ["GET"],
          args: {
            id: {
              description: "Eindeutige Kennung des Anhangs.",
              type: "integer",
              required: false,
            },
          },
        },
      ],
    });
  });

  it("leaves CORS preflights to the CORS answer (204) and unknown routes to 404", async () => {
    const preflight = await api(`${NS}/events`, {
      method: "OPTIONS",
      headers: { origin: "https://widget.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe("");
    const nowhere = await api(`${NS}/nowhere`, { method: "OPTIONS" });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.code).toBe("rest_no_route");
  });
});
