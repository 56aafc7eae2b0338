import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedMedia, seedUser } from "../support/factories";
import { KINDS, seedLinked, stored } from "./kinds";

const version = async () =>
  (await env.DB.prepare("SELECT version FROM content_version").first<{ version: number }>())!
    .version;

describe.each(KINDS)("POST /$plural (§8.6)", ({ kind, plural, fields }) => {
  const create = (json: Record<string, unknown>, headers = ADMIN) =>
    api(`${NS}/${plural}`, { json, headers });

  it("creates with every field, 201, from the shared post-id sequence", async () => {
    const before = await version();
    const res = await create({
      [kind]: "Blue Room",
      description: "Main hall",
      excerpt: "Short",
      ...fields,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBeNull();
    expect(res.body).toMatchObject({
      [kind]: "Blue Room",
      description: "<p>Main hall</p>",
      excerpt: "<p>Short</p>",
      slug: "blue-room",
      status: "publish",
      author: "1",
      ...fields,
    });
    expect(res.body).not.toHaveProperty("json_ld");
    expect(await stored("posts", res.body.id)).toMatchObject({
      post_type: kind === "venue" ? "tribe_venue" : "tribe_organizer",
      deleted_gmt: null,
    });
    expect(await version()).toBe(before + 1);
    const again = await api(`${NS}/${plural}/${res.body.id}`);
    expect({ ...again.body, json_ld: undefined }).toEqual({ ...res.body, json_ld: undefined });
    // Ids are shared with events.
    const event = await api(`${NS}/events`, {
      json: { title: "E", start_date: "2027-01-01 10:00", end_date: "2027-01-01 11:00" },
      headers: ADMIN,
    });
    expect(event.body.id).toBe(res.body.id + 1);
  });

  it("takes form-encoded bodies, post dates and an image by id or by URL", async () => {
    const form = await api(`${NS}/${plural}`, {
      form: { [kind]: "Form Place", date: "2025-03-04 05:06:07" },
      headers: ADMIN,
    });
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({
      date: "2025-03-04 05:06:07",
      date_utc: "2025-03-04 05:06:07",
    });
    const utc = await create({ [kind]: "UTC Place", date_utc: "2025-03-04T05:06:07+02:00" });
    expect(utc.body.date_utc).toBe("2025-03-04 03:06:07");
    const image = await seedMedia("https://img.example.com/known.jpg");
    expect((await create({ [kind]: "With id", image })).body.image).toMatchObject({
      id: image,
      url: "https://img.example.com/known.jpg",
    });
    const byUrl = await create({ [kind]: "With URL", image: "https://img.example.com/new.png" });
    expect(byUrl.body.image).toMatchObject({
      url: "https://img.example.com/new.png",
      extension: "png",
      id: byUrl.body.id - 1,
    });
  });

  it("returns the existing post for a duplicate name (any case), 201, unchanged (contract §4 row 13)", async () => {
    const first = await create({ [kind]: "Town Hall", description: "Original", phone: "111" });
    const before = await version();
    const dup = await create({
      [kind]: "town HALL",
      phone: "999",
      website: "https://changed.example.com",
    });
    expect(dup.status).toBe(201);
    expect(dup.body).toEqual(first.body);
    expect(await version()).toBe(before);
    const sameDescription = await create({ [kind]: "TOWN HALL", description: "Original" });
    expect(sameDescription.body.id).toBe(first.body.id);
    const otherDescription = await create({ [kind]: "Town Hall", description: "Another one" });
    expect(otherDescription.body.id).not.toBe(first.body.id);
    expect(otherDescription.body.slug).toBe("town-hall-2");
  });

  it("matches names and descriptions case-insensitively in every script, standalone, nested and in German", async () => {
    const hall = await create({ [kind]: "Main Hall" });
    const lower = await create({ [kind]: "main hall" });
    expect(lower.status).toBe(201);
    expect(lower.body.id).toBe(hall.body.id);
    const umlaut = await create({ [kind]: "Über Café", description: "Große Bühne" });
    const folded = await api(`/de${NS}/${plural}`, {
      json: { [kind]: "über CAFÉ", description: "große bühne" },
      headers: ADMIN,
    });
    expect(folded.status).toBe(201);
    expect(folded.body.id).toBe(umlaut.body.id);
    const shouted = await create({ [kind]: "ÜBER CAFÉ", description: "GROẞE BÜHNE" });
    expect(shouted.body.id).toBe(umlaut.body.id);
    // Patterns are not wildcards: `_` and `%` in a name match only themselves.
    const literal = await create({ [kind]: "Ü_%" });
    expect((await create({ [kind]: "üx%" })).body.id).not.toBe(literal.body.id);
    expect((await create({ [kind]: "ü_%" })).body.id).toBe(literal.body.id);
    // Long names too (D1 refuses LIKE patterns over 50 bytes): 300 characters, 100 of them non-ASCII.
    const long = `Ü${"ber die Brücke ".repeat(20)}zum Saal`.slice(0, 300);
    const longOne = await create({ [kind]: long });
    expect(longOne.status).toBe(201);
    const longAgain = await create({ [kind]: long.toUpperCase() });
    expect(longAgain.status).toBe(201);
    expect(longAgain.body.id).toBe(longOne.body.id);
    const longOther = await create({ [kind]: `${long.slice(0, 299)}x` });
    expect(longOther.body.id).not.toBe(longOne.body.id);
    // The same rule for a venue/organizer given with an event.
    const event = await api(`${NS}/events`, {
      json: {
        title: "Nested",
        start_date: "2030-01-01 10:00",
        end_date: "2030-01-01 11:00",
        [kind]: kind === "venue" ? { venue: "MAIN HALL" } : [{ organizer: "MAIN HALL" }],
      },
      headers: ADMIN,
    });
    expect(event.status).toBe(201);
    const linked = kind === "venue" ? event.body.venue : event.body.organizer[0];
    expect(linked.id).toBe(hall.body.id);
  });

  it("never reuses a trashed post, and renaming never deduplicates", async () => {
    const trashed = await seedLinked(kind, { title: "Old Barn", status: "trash" });
    const fresh = await create({ [kind]: "Old Barn" });
    expect(fresh.body.id).not.toBe(trashed);
    const other = await create({ [kind]: "Other Barn" });
    const renamed = await api(`${NS}/${plural}/${other.body.id}`, {
      method: "PUT",
      json: { [kind]: "old barn" },
      headers: ADMIN,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: other.body.id,
      [kind]: "old barn",
      slug: "other-barn",
    });
  });
});

describe.each(KINDS)(
  "POST|PUT|PATCH /$plural/{id} and by slug: partial updates (contract §4 rows 10, 12)",
  ({ kind, plural, fields, custom }) => {
    it("changes only what is sent; an empty string removes a field", async () => {
      const created = (
        await api(`${NS}/${plural}`, {
          json: { [kind]: "Keeper", description: "Stays", ...fields },
          headers: ADMIN,
        })
      ).body;
      const put = await api(`${NS}/${plural}/${created.id}`, {
        method: "PUT",
        json: { phone: "+49 30 1234" },
        headers: ADMIN,
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        ...created,
        phone: "+49 30 1234",
        modified: put.body.modified,
        modified_utc: put.body.modified_utc,
      });
      const removed = await api(`${NS}/${plural}/${created.id}`, {
        method: "PATCH",
        json: { [custom.field]: "", description: "", website: "" },
        headers: ADMIN,
      });
      expect(removed.body).not.toHaveProperty(custom.field);
      expect(removed.body).not.toHaveProperty("description");
      expect(removed.body).not.toHaveProperty("website");
      expect(removed.body[kind]).toBe("Keeper");
      const bySlug = await api(`${NS}/${plural}/by-slug/keeper`, {
        method: "POST",
        json: { excerpt: "Now with an excerpt" },
        headers: ADMIN,
      });
      expect(bySlug.body).toMatchObject({
        id: created.id,
        excerpt: "<p>Now with an excerpt</p>",
        phone: "+49 30 1234",
      });
    });

    it("sets and removes the image; changes status, author and date", async () => {
      const image = await seedMedia("https://img.example.com/x.jpg");
      const id = await seedLinked(kind, { title: "Imaged", status: "draft" });
      const withImage = await api(`${NS}/${plural}/${id}`, {
        method: "PUT",
        json: { image, status: "publish", date: "2024-02-03 04:05:06" },
        headers: ADMIN,
      });
      expect(withImage.body).toMatchObject({
        image: { id: image },
        status: "publish",
        date: "2024-02-03 04:05:06",
      });
      const without = await api(`${NS}/${plural}/${id}`, {
        method: "PUT",
        json: { image: null },
        headers: ADMIN,
      });
      expect(without.body).not.toHaveProperty("image");
      const editor = await seedUser("editor");
      const moved = await api(`${NS}/${plural}/${id}`, {
        method: "PUT",
        json: { author: editor.id },
        headers: ADMIN,
      });
      expect(moved.body.author).toBe(String(editor.id));
    });
  },
);

describe("venue specifics: stateprovince, maps, coordinates (§8.6, contract rows 11, 12)", () => {
  const post = (json: Record<string, unknown>) => api(`${NS}/venues`, { json, headers: ADMIN });

  it("derives stateprovince: the state for the US or no country, else the province; a given one wins", async () => {
    expect(
      (await post({ venue: "US", country: "United States", state: "IL", province: "P" })).body
        .stateprovince,
    ).toBe("IL");
    expect((await post({ venue: "US code", country: "US", state: "NY" })).body.stateprovince).toBe(
      "NY",
    );
    expect((await post({ venue: "No country", state: "CA" })).body.stateprovince).toBe("CA");
    expect(
      (await post({ venue: "Germany", country: "Germany", state: "X", province: "Bayern" })).body
        .stateprovince,
    ).toBe("Bayern");
    expect((await post({ venue: "Nothing", country: "France" })).body).not.toHaveProperty(
      "stateprovince",
    );
    expect(
      (await post({ venue: "Given", country: "Canada", province: "ON", stateprovince: "Ontario" }))
        .body.stateprovince,
    ).toBe("Ontario");
  });

  it("derives it again when the region changes on update, and leaves it alone otherwise", async () => {
    const v = (await post({ venue: "Mover", country: "United States", state: "IL" })).body;
    const zip = await api(`${NS}/venues/${v.id}`, {
      method: "PATCH",
      json: { zip: "12345" },
      headers: ADMIN,
    });
    expect(zip.body.stateprovince).toBe("IL");
    const moved = await api(`${NS}/venues/${v.id}`, {
      method: "PATCH",
      json: { country: "Canada", province: "QC" },
      headers: ADMIN,
    });
    expect(moved.body.stateprovince).toBe("QC");
    const explicit = await api(`${NS}/venues/${v.id}`, {
      method: "PATCH",
      json: { stateprovince: "Québec" },
      headers: ADMIN,
    });
    expect(explicit.body.stateprovince).toBe("Québec");
    const cleared = await api(`${NS}/venues/${v.id}`, {
      method: "PATCH",
      json: { stateprovince: "" },
      headers: ADMIN,
    });
    expect(cleared.body.stateprovince).toBe("QC");
  });

  it("show_map and show_map_link default to true, parse booleans, and stay when omitted on update", async () => {
    const v = (await post({ venue: "Maps" })).body;
    expect(v).toMatchObject({ show_map: true, show_map_link: true });
    const off = await api(`${NS}/venues/${v.id}`, {
      method: "PUT",
      json: { show_map: "false", show_map_link: 0 },
      headers: ADMIN,
    });
    expect(off.body).toMatchObject({ show_map: false, show_map_link: false });
    const other = await api(`${NS}/venues/${v.id}`, {
      method: "PUT",
      json: { city: "Berlin" },
      headers: ADMIN,
    });
    expect(other.body).toMatchObject({ show_map: false, show_map_link: false });
  });

  it("stores geo_lat/geo_lng and removes them with an empty string or null", async () => {
    const v = (await post({ venue: "Located", geo_lat: "52.52", geo_lng: 13.405 })).body;
    expect(v).toMatchObject({ geo_lat: 52.52, geo_lng: 13.405 });
    const near = await api(`${NS}/events`, {
      json: {
        title: "Near",
        start_date: "2027-01-01 10:00",
        end_date: "2027-01-01 11:00",
        venue: v.id,
      },
      headers: ADMIN,
    });
    expect(near.status).toBe(201);
    expect(
      (
        await api(`${NS}/events?geoloc_lat=52.5&geoloc_lng=13.4&start_date=2026-12-01`)
      ).body.events.map((e: any) => e.id),
    ).toEqual([near.body.id]);
    const cleared = await api(`${NS}/venues/${v.id}`, {
      method: "PUT",
      json: { geo_lat: "", geo_lng: null },
      headers: ADMIN,
    });
    expect(cleared.body).not.toHaveProperty("geo_lat");
    expect(await stored("venues", v.id)).toMatchObject({ geo_lat: null, geo_lng: null });
  });
});
