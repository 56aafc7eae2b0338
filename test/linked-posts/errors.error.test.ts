import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";
import { KINDS, seedLinked } from "./kinds";

/** Rows that a failed write must not have touched. */
const snapshot = async () =>
  JSON.stringify(
    await env.DB.prepare(
      "SELECT (SELECT count(*) FROM posts) p, (SELECT count(*) FROM venues) v, (SELECT count(*) FROM organizers) o, (SELECT count(*) FROM media) m, (SELECT group_concat(title || status || phone) FROM venues) vs, (SELECT group_concat(title || status || phone) FROM organizers) os, (SELECT version FROM content_version) cv",
    ).first(),
  );

const invalid = (params: string[]) => ({
  code: "rest_invalid_param",
  message: `Invalid parameter(s): ${params.join(", ")}`,
  data: {
    status: 400,
    params: Object.fromEntries(params.map((p) => [p, expect.any(String)])),
    details: [],
  },
});

describe.each(KINDS)("/$plural: read errors (§2.6, §5.3, §10)", ({ kind, plural }) => {
  it("400 rest_invalid_param id for an unknown id or another type's id, as the original (sample 24)", async () => {
    const sample24 = {
      code: "rest_invalid_param",
      message: "Invalid parameter(s): id",
      data: { status: 400, params: { id: "Invalid parameter." }, details: [] },
    };
    const event = await seedEvent({ title: "An event", start: day(1) });
    const other = await seedLinked(kind === "venue" ? "organizer" : "venue", {
      title: "Other kind",
    });
    for (const id of [999, event, other, 0, "99999999999999999999"]) {
      const res = await api(`${NS}/${plural}/${id}`);
      expect(res.status, String(id)).toBe(400);
      expect(res.body).toEqual(sample24);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });

  it("400 slug for an unknown slug; 404 rest_no_route for a non-numeric id", async () => {
    const res = await api(`${NS}/${plural}/by-slug/nowhere`);
    expect(res.body).toEqual(invalid(["slug"]));
    expect((await api(`${NS}/${plural}/foo`)).body.code).toBe("rest_no_route");
  });

  it("400 for malformed list arguments, each named", async () => {
    const venue = await seedLinked("venue", { title: "Not an event" });
    const cases: Array<[string, string[]]> = [
      ["page=0", ["page"]],
      ["page=foo", ["page"]],
      ["per_page=-1", ["per_page"]],
      ["per_page=0&page=x", ["page", "per_page"]],
      ["search=", ["search"]],
      ["event=foo", ["event"]],
      ["event=999", ["event"]],
      [`event=${venue}`, ["event"]],
      ["status=foo", ["status"]],
      ["status=any", ["status"]],
      ["modified_after=whenever", ["modified_after"]],
    ];
    for (const [query, params] of cases) {
      const res = await api(`${NS}/${plural}?${query}`, { headers: ADMIN });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual(invalid(params));
    }
  });

  it("says it in the request's language", async () => {
    const res = await api(`/de/wp-json/tribe/events/v1/${plural}?page=9`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(`${kind}-archive-page-not-found`);
    expect(res.body.message).toMatch(
      kind === "venue" ? /Veranstaltungsort-Archivs/ : /Veranstalter-Archivs/,
    );
  });
});

describe.each(KINDS)("/$plural: write errors (§1.3, §8.6, §10)", ({ kind, plural }) => {
  const post = (json: unknown, headers: Record<string, string> = ADMIN) =>
    api(`${NS}/${plural}`, { json, headers });

  it("400 rest_missing_callback_param without a name, before the permission check", async () => {
    const before = await snapshot();
    for (const headers of [ADMIN, {}]) {
      const res = await post({ description: "No name" }, headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "rest_missing_callback_param",
        message: `Missing parameter(s): ${kind}`,
        data: { status: 400, params: [kind] },
      });
    }
    expect(await snapshot()).toBe(before);
  });

  it("400 rest_invalid_param for every malformed field, changing nothing", async () => {
    const before = await snapshot();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ [kind]: "" }, [kind]],
      [{ [kind]: "   " }, [kind]],
      [{ [kind]: 42 }, [kind]],
      [{ author: 999 }, ["author"]],
      [{ author: "" }, ["author"]],
      [{ author: "someone" }, ["author"]],
      [{ date: "someday" }, ["date"]],
      [{ date_utc: "never" }, ["date_utc"]],
      [{ status: "published" }, ["status"]],
      [{ website: "not a url" }, ["website"]],
      [{ website: "www.example.com" }, ["website"]],
      [{ image: 999 }, ["image"]],
      [{ image: "not a url" }, ["image"]],
      [{ image: "https://example.com/file.pdf" }, ["image"]],
      [{ description: 42 }, ["description"]],
      [{ phone: ["555"] }, ["phone"]],
      [{ date: "someday", website: "nope" }, ["date", "website"]],
      ...(kind === "venue"
        ? ([
            [{ geo_lat: 91 }, ["geo_lat"]],
            [{ geo_lat: "-90.5" }, ["geo_lat"]],
            [{ geo_lng: "181" }, ["geo_lng"]],
            [{ geo_lng: "east" }, ["geo_lng"]],
            [{ show_map: "yes" }, ["show_map"]],
            [{ show_map_link: "" }, ["show_map_link"]],
            [{ city: { nested: true } }, ["city"]],
          ] as Array<[Record<string, unknown>, string[]]>)
        : ([
            [{ email: ["a@example.com"] }, ["email"]],
            [{ email: 7 }, ["email"]],
          ] as Array<[Record<string, unknown>, string[]]>)),
    ];
    for (const [fields, params] of cases) {
      const res = await post({ [kind]: "Valid name", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body, JSON.stringify(fields)).toEqual(invalid(params));
    }
    expect(await snapshot()).toBe(before);
  });

  it("400 rest_invalid_json for a broken body", async () => {
    const res = await api(`${NS}/${plural}`, {
      body: "{nope",
      headers: { ...ADMIN, "content-type": "application/json" },
      method: "POST",
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_json");
  });

  it("updates: 400 for an empty name, an unknown id or slug (even anonymous), a bad field; nothing changes", async () => {
    const id = await seedLinked(kind, { title: "Target", phone: "1" });
    const before = await snapshot();
    const cases: Array<
      [string, string, Record<string, unknown>, Record<string, string>, string[]]
    > = [
      ["PUT", `/${plural}/${id}`, { [kind]: "" }, ADMIN, [kind]],
      ["PATCH", `/${plural}/by-slug/target`, { [kind]: "" }, ADMIN, [kind]],
      ["PUT", `/${plural}/${id}`, { website: "bad", phone: "2" }, ADMIN, ["website"]],
      ["PUT", `/${plural}/999`, { phone: "2" }, ADMIN, ["id"]],
      ["POST", `/${plural}/999`, { phone: "2" }, {}, ["id"]],
      ["PATCH", `/${plural}/by-slug/missing`, { phone: "2" }, {}, ["slug"]],
      ["PUT", `/${plural}/${id}`, { author: 999 }, ADMIN, ["author"]],
      ["PUT", `/${plural}/${id}`, { image: 999 }, {}, ["image"]],
    ];
    for (const [method, path, json, headers, params] of cases) {
      const res = await api(`${NS}${path}`, { method, json, headers });
      expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(400);
      expect(res.body).toEqual(invalid(params));
    }
    expect(await snapshot()).toBe(before);
  });

  it("deletes: 400 for an unknown id or slug (even anonymous), bad force; 410 when already trashed", async () => {
    const trashed = await seedLinked(kind, { title: "Trashed", status: "trash" });
    const before = await snapshot();
    for (const [path, headers, params] of [
      [`/${plural}/999`, {}, ["id"]],
      [`/${plural}/999`, ADMIN, ["id"]],
      [`/${plural}/by-slug/missing`, {}, ["slug"]],
      [`/${plural}/${trashed}?force=maybe`, ADMIN, ["force"]],
    ] as Array<[string, Record<string, string>, string[]]>) {
      const res = await api(`${NS}${path}`, { method: "DELETE", headers });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual(invalid(params));
    }
    expect(
      (await api(`${NS}/${plural}/${trashed}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(410);
    expect(
      (await api(`${NS}/${plural}/by-slug/trashed`, { method: "DELETE", headers: ADMIN })).body
        .code,
    ).toBe(`${kind}-is-in-trash`);
    expect(await snapshot()).toBe(before);
  });

  it("contributors cannot add images by URL (no upload_files): 400 image", async () => {
    const contributor = await seedUser("contributor");
    const res = await post(
      { [kind]: "Pictured", image: "https://img.example.com/a.jpg" },
      contributor.headers,
    );
    expect(res.body).toEqual(invalid(["image"]));
  });
});
