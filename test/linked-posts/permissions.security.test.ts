import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { KINDS, seedLinked, stored } from "./kinds";

const ROLES = [
  "anonymous",
  "subscriber",
  "contributor",
  "author",
  "editor",
  "administrator",
] as const;
type RoleName = (typeof ROLES)[number];

async function people() {
  const owner = await seedUser("author", "owner");
  const headers: Record<RoleName, Record<string, string>> = {
    anonymous: {},
    subscriber: (await seedUser("subscriber")).headers,
    contributor: (await seedUser("contributor")).headers,
    author: (await seedUser("author")).headers,
    editor: (await seedUser("editor")).headers,
    administrator: ADMIN,
  };
  return { owner, headers };
}

/** Expected statuses, in ROLES order, on a published post of another author. */
const MATRIX: Record<string, number[]> = {
  "GET list": [200, 200, 200, 200, 200, 200],
  "POST create": [401, 403, 201, 201, 201, 201],
  GET: [200, 200, 200, 200, 200, 200],
  PUT: [401, 403, 403, 403, 200, 200],
  PATCH: [401, 403, 403, 403, 200, 200],
  POST: [401, 403, 403, 403, 200, 200],
  DELETE: [401, 403, 403, 403, 200, 200],
};

describe.each(KINDS)(
  "/$plural: permission matrix, anonymous and five roles, by id and by slug (§9.2, contract row 15)",
  ({ kind, plural }) => {
    it("archive: everyone reads; creating needs edit rights (after validation)", async () => {
      const { headers } = await people();
      for (const [i, role] of ROLES.entries()) {
        expect((await api(`${NS}/${plural}`, { headers: headers[role] })).status, role).toBe(
          MATRIX["GET list"][i],
        );
        const res = await api(`${NS}/${plural}`, {
          json: { [kind]: `By ${role}` },
          headers: headers[role],
        });
        expect(res.status, role).toBe(MATRIX["POST create"][i]);
        if (res.status >= 400)
          expect(res.body).toEqual({
            code: "rest_forbidden",
            message: "Sorry, you are not allowed to do that.",
            data: { status: res.status },
          });
      }
    });

    for (const by of ["id", "slug"] as const) {
      it(`single routes by ${by}: reads for all, edits and deletes for editors and up only`, async () => {
        const { owner, headers } = await people();
        for (const op of ["GET", "PUT", "PATCH", "POST", "DELETE"]) {
          for (const [i, role] of ROLES.entries()) {
            const title = `Target ${op} ${role} ${by}`;
            const id = await seedLinked(kind, { title, author: owner.id, phone: "1" });
            const slug = title.toLowerCase().replace(/ /g, "-");
            const path = by === "id" ? `${NS}/${plural}/${id}` : `${NS}/${plural}/by-slug/${slug}`;
            const res = await api(path, {
              method: op,
              headers: headers[role],
              ...(op === "GET" || op === "DELETE" ? {} : { json: { phone: "2" } }),
            });
            expect(res.status, `${op} ${role} by ${by}`).toBe(MATRIX[op][i]);
            const row = await stored(plural, id);
            if (res.status === 200 && op !== "GET")
              expect(row!.phone === "2" || row!.status === "trash").toBe(true);
            else expect(row).toMatchObject({ phone: "1", status: "publish" });
          }
        }
      });
    }

    it("own posts: contributors edit and delete their unpublished ones only; authors their published ones too", async () => {
      const contributor = await seedUser("contributor", "contrib");
      const author = await seedUser("author", "writer");
      const draft = await api(`${NS}/${plural}`, {
        json: { [kind]: "Contrib draft", status: "publish" },
        headers: contributor.headers,
      });
      expect(draft.body.status).toBe("pending");
      expect(
        (
          await api(`${NS}/${plural}`, {
            json: { [kind]: "Contrib default" },
            headers: contributor.headers,
          })
        ).body.status,
      ).toBe("draft");
      for (const by of [`${draft.body.id}`, "by-slug/contrib-draft"]) {
        expect((await api(`${NS}/${plural}/${by}`, { headers: contributor.headers })).status).toBe(
          200,
        );
        expect(
          (
            await api(`${NS}/${plural}/${by}`, {
              method: "PATCH",
              json: { phone: "3" },
              headers: contributor.headers,
            })
          ).status,
        ).toBe(200);
      }
      const published = await seedLinked(kind, {
        title: "Contrib published",
        author: contributor.id,
      });
      expect(
        (
          await api(`${NS}/${plural}/${published}`, {
            method: "PUT",
            json: { phone: "4" },
            headers: contributor.headers,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await api(`${NS}/${plural}/by-slug/contrib-published`, {
            method: "DELETE",
            headers: contributor.headers,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await api(`${NS}/${plural}/by-slug/contrib-draft`, {
            method: "DELETE",
            headers: contributor.headers,
          })
        ).body.status,
      ).toBe("trash");
      expect(
        (
          await api(`${NS}/${plural}/by-slug/contrib-draft?force=true`, {
            method: "DELETE",
            headers: contributor.headers,
          })
        ).body.deleted,
      ).toBe(true);

      const mine = await api(`${NS}/${plural}`, {
        json: { [kind]: "Author own" },
        headers: author.headers,
      });
      expect(mine.body.status).toBe("publish");
      expect(
        (
          await api(`${NS}/${plural}/by-slug/author-own`, {
            method: "PUT",
            json: { phone: "5" },
            headers: author.headers,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await api(`${NS}/${plural}/${mine.body.id}?force=true`, {
            method: "DELETE",
            headers: author.headers,
          })
        ).body.deleted,
      ).toBe(true);
    });

    it("authorship: only editors may give a post to someone else", async () => {
      const author = await seedUser("author", "writer");
      const other = await seedUser("author", "other");
      const editor = await seedUser("editor");
      const own = await api(`${NS}/${plural}`, {
        json: { [kind]: "Mine", author: author.id },
        headers: author.headers,
      });
      expect(own.status).toBe(201);
      expect(
        (
          await api(`${NS}/${plural}`, {
            json: { [kind]: "For other", author: other.id },
            headers: author.headers,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await api(`${NS}/${plural}/${own.body.id}`, {
            method: "PUT",
            json: { author: other.id },
            headers: author.headers,
          })
        ).status,
      ).toBe(403);
      const given = await api(`${NS}/${plural}/${own.body.id}`, {
        method: "PUT",
        json: { author: other.id },
        headers: editor.headers,
      });
      expect(given.body.author).toBe(String(other.id));
    });

    it("sets the Allow header from what the user may do", async () => {
      const { headers } = await people();
      const id = await seedLinked(kind, { title: "Allowed" });
      expect((await api(`${NS}/${plural}/${id}`)).headers.get("allow")).toBe("GET");
      expect(
        (await api(`${NS}/${plural}/${id}`, { headers: headers.subscriber })).headers.get("allow"),
      ).toBe("GET");
      expect(
        (await api(`${NS}/${plural}/by-slug/allowed`, { headers: ADMIN })).headers.get("allow"),
      ).toBe("GET, DELETE, POST, PUT, PATCH");
      expect(
        (await api(`${NS}/${plural}`, { headers: headers.contributor })).headers.get("allow"),
      ).toBe("GET, POST");
      expect((await api(`${NS}/${plural}`)).headers.get("allow")).toBe("GET");
    });

    it("never lets a request parameter point an operation at another post", async () => {
      const a = await seedLinked(kind, { title: "Post A", phone: "1" });
      const b = await seedLinked(kind, { title: "Post B", phone: "1" });
      const res = await api(`${NS}/${plural}/${a}?id=${b}`, {
        method: "PUT",
        json: { id: b, slug: "post-b", phone: "9" },
        headers: ADMIN,
      });
      expect(res.body.id).toBe(a);
      expect(await stored(plural, b)).toMatchObject({ phone: "1", slug: "post-b" });
    });
  },
);
