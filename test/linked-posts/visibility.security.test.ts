import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { KINDS, seedLinked } from "./kinds";

describe.each(KINDS)(
  "/$plural: drafts, private and trashed posts by role (§4.7, §7.1, §9.2)",
  ({ kind, plural }) => {
    async function world() {
      const author = await seedUser("author");
      const contributor = await seedUser("contributor");
      const editor = await seedUser("editor");
      const subscriber = await seedUser("subscriber");
      const published = await seedLinked(kind, {
        title: "Published",
        postDate: "2026-01-06 00:00:00",
      });
      const draft = await seedLinked(kind, {
        title: "Authors draft",
        status: "draft",
        author: author.id,
        postDate: "2026-01-05 00:00:00",
      });
      const pending = await seedLinked(kind, {
        title: "Contributors pending",
        status: "pending",
        author: contributor.id,
        postDate: "2026-01-04 00:00:00",
      });
      const priv = await seedLinked(kind, {
        title: "Private one",
        status: "private",
        author: author.id,
        postDate: "2026-01-03 00:00:00",
      });
      const trashed = await seedLinked(kind, {
        title: "Trashed one",
        status: "trash",
        author: author.id,
        postDate: "2026-01-02 00:00:00",
      });
      return { author, contributor, editor, subscriber, published, draft, pending, priv, trashed };
    }
    const ids = async (query: string, headers: Record<string, string> = {}) => {
      const res = await api(`${NS}/${plural}${query}`, { headers });
      expect(res.status, query).toBe(200);
      return res.body[plural].map((p: any) => p.id);
    };

    it("lists only published posts to anonymous visitors and subscribers, and refuses other statuses to them", async () => {
      const w = await world();
      expect(await ids("")).toEqual([w.published]);
      expect(await ids("", w.subscriber.headers)).toEqual([w.published]);
      for (const headers of [{}, w.subscriber.headers]) {
        const res = await api(`${NS}/${plural}?status=draft`, { headers });
        expect(res.status).toBe(400);
        expect(res.body.data.params).toHaveProperty("status");
        expect((await api(`${NS}/${plural}?status=publish,private`, { headers })).status).toBe(400);
      }
      expect(await ids("?status=publish")).toEqual([w.published]);
      expect((await api(`${NS}/${plural}?search=draft`)).body.total).toBe(0);
    });

    it("shows editors every status but trash, and trash when asked", async () => {
      const w = await world();
      expect(await ids("", w.editor.headers)).toEqual([w.published, w.draft, w.pending, w.priv]);
      expect(await ids("?status=trash", w.editor.headers)).toEqual([w.trashed]);
      expect(await ids("?status=draft,pending", ADMIN)).toEqual([w.draft, w.pending]);
    });

    it("shows authors and contributors their own unpublished posts, never other people's", async () => {
      const w = await world();
      expect(await ids("", w.author.headers)).toEqual([w.published, w.draft, w.priv]);
      expect(await ids("", w.contributor.headers)).toEqual([w.published, w.pending]);
      expect(await ids("?status=draft,private", w.contributor.headers)).toEqual([]);
      expect(await ids("?status=trash", w.author.headers)).toEqual([w.trashed]);
      expect(
        (await api(`${NS}/${plural}?search=authors`, { headers: w.contributor.headers })).body
          .total,
      ).toBe(0);
    });

    it("guards single drafts, private and trashed posts: 403 not-accessible except for the author and editors", async () => {
      const w = await world();
      const slugs: Record<number, string> = {
        [w.draft]: "authors-draft",
        [w.priv]: "private-one",
        [w.trashed]: "trashed-one",
      };
      for (const id of [w.draft, w.priv, w.trashed]) {
        for (const headers of [{}, w.subscriber.headers, w.contributor.headers]) {
          for (const path of [`${id}`, `by-slug/${slugs[id]}`]) {
            const res = await api(`${NS}/${plural}/${path}`, { headers });
            expect(res.status, path).toBe(403);
            expect(res.body).toEqual({
              code: `${kind}-not-accessible`,
              message: `The requested ${kind} is not accessible`,
              data: { status: 403 },
            });
          }
        }
        expect((await api(`${NS}/${plural}/${id}`, { headers: w.author.headers })).status).toBe(
          200,
        );
        expect(
          (await api(`${NS}/${plural}/by-slug/${slugs[id]}`, { headers: w.editor.headers })).status,
        ).toBe(200);
      }
      expect(
        (await api(`${NS}/${plural}/${w.pending}`, { headers: w.author.headers })).status,
      ).toBe(403);
    });

    it("does not hand out someone else's unreadable draft as a duplicate", async () => {
      const w = await world();
      const res = await api(`${NS}/${plural}`, {
        json: { [kind]: "Authors draft" },
        headers: w.contributor.headers,
      });
      expect(res.status).toBe(201);
      expect(res.body.id).not.toBe(w.draft);
      expect(res.body.slug).toBe("authors-draft-2");
      const editorCopy = await api(`${NS}/${plural}`, {
        json: { [kind]: "authors DRAFT" },
        headers: w.editor.headers,
      });
      expect(editorCopy.body.id).toBe(w.draft);
    });

    it("marks authenticated answers private and anonymous ones public", async () => {
      const w = await world();
      expect((await api(`${NS}/${plural}/${w.published}`)).headers.get("cache-control")).toContain(
        "public",
      );
      expect(
        (await api(`${NS}/${plural}/${w.published}`, { headers: w.editor.headers })).headers.get(
          "cache-control",
        ),
      ).toContain("private");
    });
  },
);

describe.each(KINDS)(
  "/$plural: password-protected posts (§4.7, contract row 18)",
  ({ kind, plural, fields, custom }) => {
    it("blanks protected fields in lists and single GETs (names kept, never 403) unless the password or an editor's context=edit opens them", async () => {
      const editor = await seedUser("editor");
      const subscriber = await seedUser("subscriber");
      const columns = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v]));
      const id = await seedLinked(kind, {
        title: "Guarded",
        content: "Secret text",
        password: "open sesame",
        ...columns,
      });
      const single = await api(`${NS}/${plural}/${id}`);
      expect(single.status).toBe(200);
      expect(single.body[kind]).toBe("Guarded");
      expect(single.body).toMatchObject({
        description: "",
        phone: "",
        website: "",
        [custom.field]: "",
      });
      expect(single.body).not.toHaveProperty("json_ld");
      if (kind === "venue")
        expect(single.body).toMatchObject({ show_map: null, show_map_link: null, state: "IL" });
      expect(single.text).not.toMatch(/Secret text|555|example\.com"/);
      const [listed] = (await api(`${NS}/${plural}`)).body[plural];
      expect(listed).toMatchObject({ [kind]: "Guarded", description: "", phone: "" });

      const opened = await api(`${NS}/${plural}/${id}?password=open%20sesame`);
      expect(opened.body).toMatchObject({
        description: "<p>Secret text</p>",
        [custom.field]: custom.value,
      });
      expect(opened.body).toHaveProperty("json_ld");
      expect(
        (await api(`${NS}/${plural}?password=open%20sesame`)).body[plural][0].description,
      ).toBe("<p>Secret text</p>");
      expect((await api(`${NS}/${plural}/by-slug/guarded?password=wrong`)).body.description).toBe(
        "",
      );
      expect(
        (await api(`${NS}/${plural}/${id}?context=edit`, { headers: editor.headers })).body
          .description,
      ).toBe("<p>Secret text</p>");
      expect(
        (await api(`${NS}/${plural}?context=edit`, { headers: editor.headers })).body[plural][0]
          .phone,
      ).toBe(fields.phone);
      expect(
        (await api(`${NS}/${plural}/${id}?context=edit`, { headers: subscriber.headers })).body
          .description,
      ).toBe("");
      expect(
        (await api(`${NS}/${plural}/${id}`, { headers: editor.headers })).body.description,
      ).toBe("");
    });
  },
);
