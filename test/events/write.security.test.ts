import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";

const body = { title: "New", start_date: "2027-05-01 10:00:00", end_date: "2027-05-01 11:00:00" };

async function people() {
  return {
    subscriber: await seedUser("subscriber"),
    contributor: await seedUser("contributor"),
    author: await seedUser("author"),
    editor: await seedUser("editor"),
    otherAuthor: await seedUser("author", "other-author"),
  };
}

describe("permission matrix for event writes (§9.2, contract §4 row 15)", () => {
  it("anonymous: 401 rest_forbidden on create, edit and delete (after validation)", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const forbidden = {
      code: "rest_forbidden",
      message: "Sorry, you are not allowed to do that.",
      data: { status: 401 },
    };
    const create = await api(`${NS}/events`, { json: body });
    expect(create.status).toBe(401);
    expect(create.body).toEqual(forbidden);
    expect(create.headers.get("allow")).toBe("GET");
    for (const [method, path] of [
      ["PUT", `/events/${id}`],
      ["DELETE", `/events/${id}`],
      ["PATCH", "/events/by-slug/e"],
      ["DELETE", "/events/by-slug/e"],
      ["PUT", "/events/999999"],
    ]) {
      const res = await api(`${NS}${path}`, { method, json: { title: "x" } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual(forbidden);
    }
  });

  it("subscribers: 403 everywhere", async () => {
    const p = await people();
    const id = await seedEvent({ title: "E", start: day(1) });
    for (const [method, path] of [
      ["POST", "/events"],
      ["PUT", `/events/${id}`],
      ["DELETE", `/events/${id}`],
      ["PUT", "/events/by-slug/e"],
    ]) {
      const res = await api(`${NS}${path}`, { method, json: body, headers: p.subscriber.headers });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe("rest_forbidden");
    }
  });

  it("contributors: create drafts, publish becomes pending, edit/delete only their own unpublished events", async () => {
    const p = await people();
    const h = p.contributor.headers;
    const draft = await api(`${NS}/events`, { json: body, headers: h });
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe("draft");
    const asked = await api(`${NS}/events`, {
      json: { ...body, title: "Wants publish", status: "publish" },
      headers: h,
    });
    expect(asked.body.status).toBe("pending");
    const secret = await api(`${NS}/events`, {
      json: { ...body, title: "Wants private", status: "private" },
      headers: h,
    });
    expect(secret.body.status).toBe("pending");
    expect(
      (
        await api(`${NS}/events/${draft.body.id}`, {
          method: "PUT",
          json: { title: "Mine" },
          headers: h,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(`${NS}/events/by-slug/new`, {
          method: "PATCH",
          json: { status: "publish" },
          headers: h,
        })
      ).body.status,
    ).toBe("pending");
    // Once an editor publishes it, it is no longer the contributor's to change.
    await api(`${NS}/events/${draft.body.id}`, {
      method: "PUT",
      json: { status: "publish" },
      headers: p.editor.headers,
    });
    for (const method of ["PUT", "DELETE"]) {
      expect(
        (await api(`${NS}/events/${draft.body.id}`, { method, json: { title: "x" }, headers: h }))
          .status,
      ).toBe(403);
      expect(
        (await api(`${NS}/events/by-slug/new`, { method, json: { title: "x" }, headers: h }))
          .status,
      ).toBe(403);
    }
    const others = await seedEvent({
      title: "Others",
      start: day(1),
      status: "draft",
      author: p.author.id,
    });
    expect(
      (await api(`${NS}/events/${others}`, { method: "PUT", json: { title: "x" }, headers: h }))
        .status,
    ).toBe(403);
    expect(
      (await api(`${NS}/events/by-slug/others`, { method: "DELETE", headers: h })).status,
    ).toBe(403);
    expect(
      (await api(`${NS}/events/${asked.body.id}`, { method: "DELETE", headers: h })).body.status,
    ).toBe("trash");
  });

  it("contributors cannot add media by URL (no upload_files)", async () => {
    const p = await people();
    const res = await api(`${NS}/events`, {
      json: { ...body, image: "https://img.example.com/a.jpg" },
      headers: p.contributor.headers,
    });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty("image");
    const ok = await api(`${NS}/events`, {
      json: { ...body, image: "https://img.example.com/a.jpg" },
      headers: p.author.headers,
    });
    expect(ok.body.image).toMatchObject({ url: "https://img.example.com/a.jpg", extension: "jpg" });
  });

  it("authors: publish and manage their own events, not other people's; cannot reassign authorship", async () => {
    const p = await people();
    const mine = await api(`${NS}/events`, { json: body, headers: p.author.headers });
    expect(mine.body.status).toBe("publish");
    expect(
      (
        await api(`${NS}/events/${mine.body.id}`, {
          method: "PATCH",
          json: { featured: true },
          headers: p.author.headers,
        })
      ).status,
    ).toBe(200);
    const theirs = await seedEvent({ title: "Theirs", start: day(1), author: p.otherAuthor.id });
    expect(
      (
        await api(`${NS}/events/${theirs}`, {
          method: "PATCH",
          json: { featured: true },
          headers: p.author.headers,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(`${NS}/events/by-slug/theirs`, {
          method: "PATCH",
          json: { featured: true },
          headers: p.author.headers,
        })
      ).status,
    ).toBe(403);
    expect(
      (await api(`${NS}/events/${theirs}`, { method: "DELETE", headers: p.author.headers })).status,
    ).toBe(403);
    const reassign = await api(`${NS}/events/${mine.body.id}`, {
      method: "PATCH",
      json: { author: p.otherAuthor.id },
      headers: p.author.headers,
    });
    expect(reassign.status).toBe(403);
  });

  it("editors and administrators: everything, including permanent deletion", async () => {
    const p = await people();
    const theirs = await seedEvent({
      title: "Theirs",
      start: day(1),
      author: p.author.id,
      status: "draft",
    });
    expect(
      (
        await api(`${NS}/events/${theirs}`, {
          method: "PUT",
          json: { author: p.otherAuthor.id },
          headers: p.editor.headers,
        })
      ).body.author,
    ).toBe(String(p.otherAuthor.id));
    expect(
      (
        await api(`${NS}/events/${theirs}?force=true`, {
          method: "DELETE",
          headers: p.editor.headers,
        })
      ).body.deleted,
    ).toBe(true);
    const res = await api(`${NS}/events/by-slug/new`, {
      method: "PUT",
      json: { title: "x" },
      headers: ADMIN,
    });
    expect(res.status).toBe(400);
  });

  it("sets the Allow header from what the user may do", async () => {
    const p = await people();
    const id = await seedEvent({ title: "E", start: day(1) });
    expect((await api(`${NS}/events/${id}`)).headers.get("allow")).toBe("GET");
    expect((await api(`${NS}/events/${id}`, { headers: ADMIN })).headers.get("allow")).toBe(
      "GET, DELETE, POST, PUT, PATCH",
    );
    expect(
      (await api(`${NS}/events`, { headers: p.contributor.headers })).headers.get("allow"),
    ).toBe("GET, POST");
  });

  it("stores event passwords only as digests", async () => {
    const res = await api(`${NS}/events`, {
      json: { ...body, password: "hunter2" },
      headers: ADMIN,
    });
    const { env } = await import("cloudflare:workers");
    const row = await env.DB.prepare("SELECT * FROM events WHERE id = ?").bind(res.body.id).first();
    expect(JSON.stringify(row)).not.toContain("hunter2");
    expect((await api(`${NS}/events/${res.body.id}`)).status).toBe(403);
    expect((await api(`${NS}/events/${res.body.id}?password=hunter2`)).status).toBe(200);
  });
});
