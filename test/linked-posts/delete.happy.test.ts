import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";
import { KINDS, type Kind, seedLinked, stored } from "./kinds";

/** An event linked to the post, plus a second organizer/nothing so the unlink is precise. */
async function linkedEvent(k: Kind, id: number, title: string) {
  if (k.kind === "venue") return seedEvent({ title, start: day(2), venueId: id });
  const other = await seedLinked("organizer", { title: `Stays with ${title}` });
  return seedEvent({ title, start: day(2), organizerIds: [other, id] });
}

describe.each(KINDS)("DELETE /$plural/{id} and by slug (§8.7)", (k) => {
  const { kind, plural } = k;

  it("moves to the trash (200, status trash), then answers 410; by slug alike", async () => {
    const id = await seedLinked(kind, { title: "Binned", status: "private" });
    const res = await api(`${NS}/${plural}/${id}`, { method: "DELETE", headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "trash", [kind]: "Binned" });
    expect(await stored(plural, id)).toMatchObject({
      status: "trash",
      trash_meta_status: "private",
    });
    const again = await api(`${NS}/${plural}/${id}`, { method: "DELETE", headers: ADMIN });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({
      code: `${kind}-is-in-trash`,
      message: `The ${kind} is already trashed`,
      data: { status: 410 },
    });
    await seedLinked(kind, { title: "Slugged" });
    expect(
      (await api(`${NS}/${plural}/by-slug/slugged`, { method: "DELETE", headers: ADMIN })).body
        .status,
    ).toBe("trash");
    expect(
      (await api(`${NS}/${plural}/by-slug/slugged`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(410);
  });

  it("unlinks the trashed post from every event, which count as changed for sync (their `modified` stays, as in WordPress)", async () => {
    const id = await seedLinked(kind, { title: "Gone Soon" });
    const events = [await linkedEvent(k, id, "First"), await linkedEvent(k, id, "Second")];
    const unrelated = await seedEvent({ title: "Unrelated", start: day(3) });
    await api(`${NS}/${plural}/${id}`, { method: "DELETE", headers: ADMIN });
    for (const event of events) {
      const body = (await api(`${NS}/events/${event}`, { headers: ADMIN })).body;
      if (kind === "venue") expect(body.venue).toEqual([]);
      else
        expect(body.organizer.map((o: any) => o.organizer)).toEqual([`Stays with ${body.title}`]);
      expect(body.modified_utc).toBe("2026-01-01 10:00:00");
    }
    expect((await api(`${NS}/events/${unrelated}`, { headers: ADMIN })).body.modified_utc).toBe(
      "2026-01-01 10:00:00",
    );
    const sync = await api(`${NS}/events?modified_after=2026-06-01&start_date=2020-01-01`, {
      headers: ADMIN,
    });
    expect(sync.body.events.map((e: any) => e.id).sort()).toEqual(events.sort());
  });

  it("?force=true deletes permanently: {deleted, previous}, a tombstone, unlinked events, an id never reused", async () => {
    const id = await seedLinked(kind, { title: "Forever Gone", status: "trash" });
    const event = await linkedEvent(k, id, "Keeps going");
    const res = await api(`${NS}/${plural}/${id}?force=true`, { method: "DELETE", headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      deleted: true,
      previous: { id, [kind]: "Forever Gone", status: "trash" },
    });
    expect(Object.keys(res.body)).toEqual(["deleted", "previous"]);
    expect(await stored(plural, id)).toBeNull();
    expect((await stored("posts", id))!.deleted_gmt).not.toBeNull();
    const body = (await api(`${NS}/events/${event}`, { headers: ADMIN })).body;
    expect(kind === "venue" ? body.venue : body.organizer.map((o: any) => o.id)).not.toContain(id);
    if (kind === "venue") expect(body.venue).toEqual([]);
    expect((await api(`${NS}/${plural}/${id}`, { headers: ADMIN })).status).toBe(400);
    const next = await api(`${NS}/${plural}`, { json: { [kind]: "Newcomer" }, headers: ADMIN });
    expect(next.body.id).toBeGreaterThan(event);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("trashing through an update (status trash) unlinks too", async () => {
    const id = await seedLinked(kind, { title: "Status Trash" });
    const event = await linkedEvent(k, id, "Updated away");
    const res = await api(`${NS}/${plural}/${id}`, {
      method: "PATCH",
      json: { status: "trash" },
      headers: ADMIN,
    });
    expect(res.body.status).toBe("trash");
    const body = (await api(`${NS}/events/${event}`, { headers: ADMIN })).body;
    expect(kind === "venue" ? body.venue : body.organizer.map((o: any) => o.id)).not.toContain(id);
  });

  it("shows a trashed post to its editors, and lists it only when asked for", async () => {
    const id = await seedLinked(kind, { title: "In the bin", status: "trash" });
    expect((await api(`${NS}/${plural}/${id}`, { headers: ADMIN })).body.status).toBe("trash");
    expect((await api(`${NS}/${plural}`, { headers: ADMIN })).body.total).toBe(0);
    expect(
      (await api(`${NS}/${plural}?status=trash`, { headers: ADMIN })).body[plural].map(
        (p: any) => p.id,
      ),
    ).toEqual([id]);
  });
});
