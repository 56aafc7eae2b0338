/**
 * Who may change a recurring series and its occurrences, and who sees them (contract §7.8): an
 * occurrence's permissions are its series' (§9.2), and what anonymous readers may not see of a
 * series — drafts, pending, private, trashed, password-protected fields — they may not see of any of
 * its occurrences either, by list, feed or occurrence id.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { listed, WINDOW } from "./support";

const SERIES = {
  title: "Secret club",
  description: "Members only.",
  start_date: "2027-03-02 19:00:00",
  end_date: "2027-03-02 21:00:00",
  recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
};

/** A series written by `headers` (an author's: their own), and its occurrences as its author sees them. */
async function seriesBy(headers: Record<string, string>, more = {}) {
  const made = await api(`${NS}/events`, { headers, json: { ...SERIES, ...more } });
  expect(made.status, made.text).toBe(201);
  const occurrences = await listed(`series=${made.body.id}&status=${made.body.status}`, headers);
  return { series: made.body, occurrences };
}

describe("writes of an occurrence need the series' rights", () => {
  it("another author may not override, split or delete a published series' occurrence; its author and editors may", async () => {
    const author = await seedUser("author");
    const other = await seedUser("author", "other-author");
    const editor = await seedUser("editor");
    const { occurrences } = await seriesBy(author.headers);
    const [, second, third] = occurrences;
    for (const [json, query] of [
      [{ title: "Mine now" }, ""],
      [{ title: "Mine now" }, "?scope=following"],
      [undefined, ""],
      [undefined, "?scope=following"],
    ] as const) {
      const res = await api(`${NS}/events/${second.id}${query}`, {
        method: json ? "PATCH" : "DELETE",
        headers: other.headers,
        json,
      });
      expect(res.status, `${json ? "PATCH" : "DELETE"}${query}`).toBe(403);
      const anon = await api(`${NS}/events/${second.id}${query}`, {
        method: json ? "PATCH" : "DELETE",
        json,
      });
      expect(anon.status).toBe(401);
    }
    expect((await listed()).map((e) => e.title)).toEqual([
      "Secret club",
      "Secret club",
      "Secret club",
    ]);
    const own = await api(`${NS}/events/${second.id}`, {
      method: "PATCH",
      headers: author.headers,
      json: { title: "Guest" },
    });
    expect(own.status, own.text).toBe(200);
    const byEditor = await api(`${NS}/events/${third.id}`, {
      method: "DELETE",
      headers: editor.headers,
    });
    expect(byEditor.status, byEditor.text).toBe(200);
    expect((await listed()).map((e) => e.title)).toEqual(["Secret club", "Guest"]);
  });

  it("a contributor may change the occurrences of their own draft series, not of a published one", async () => {
    const contributor = await seedUser("contributor");
    const draft = await seriesBy(contributor.headers);
    expect(draft.series.status).toBe("draft");
    const ok = await api(`${NS}/events/${draft.occurrences[1].id}`, {
      method: "PATCH",
      headers: contributor.headers,
      json: { title: "Draft week" },
    });
    expect(ok.status, ok.text).toBe(200);
    await api(`${NS}/events/${draft.series.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { status: "publish" },
    });
    const no = await api(`${NS}/events/${draft.occurrences[2].id}`, {
      method: "PATCH",
      headers: contributor.headers,
      json: { title: "x" },
    });
    expect(no.status).toBe(403);
  });
});

describe("anonymous readers never see what the series hides", () => {
  it("drafts, pending, private and trashed series: no occurrence listed, in the feed, or by id", async () => {
    const hidden: number[] = [];
    for (const status of ["draft", "pending", "private"]) {
      const { occurrences } = await seriesBy(ADMIN, { status, title: `Hidden ${status}` });
      hidden.push(...occurrences.map((o: any) => o.id));
    }
    const { series, occurrences } = await seriesBy(ADMIN, { title: "Trashed" });
    await api(`${NS}/events/${occurrences[1].id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Override" },
    });
    await api(`${NS}/events/${series.id}`, { method: "DELETE", headers: ADMIN });
    hidden.push(...occurrences.map((o: any) => o.id));
    expect(hidden).toHaveLength(12);

    expect(await listed()).toEqual([]);
    expect((await listed("status=publish")).length).toBe(0);
    const ics = await api(`${NS}/events.ics?${WINDOW}`);
    expect(ics.text).not.toMatch(/Hidden|Trashed|Override|Members/);
    for (const id of hidden) {
      const res = await api(`${NS}/events/${id}`);
      expect([401, 403], String(id)).toContain(res.status);
      expect(res.text).not.toMatch(/Hidden|Trashed|Override|Members/);
    }
    // Asking for a status other than publish is refused anonymously.
    expect((await api(`${NS}/events?status=draft`)).status).toBe(400);
  });

  it("a password-protected series' occurrences are blanked in lists and refused by id without the password", async () => {
    const { occurrences } = await seriesBy(ADMIN, { password: "s3cret" });
    const events = await listed();
    expect(events).toHaveLength(3);
    for (const e of events) {
      expect(e.description).toBe("");
      expect(e.series.id).toBe(occurrences[0].id);
    }
    const one = await api(`${NS}/events/${occurrences[2].id}`);
    expect(one.status).toBe(403);
    expect(one.body.code).toBe("event-password-protected");
    expect(one.text).not.toContain("Members only");
    const open = await api(`${NS}/events/${occurrences[2].id}?password=s3cret`);
    expect(open.status).toBe(200);
    expect(open.body.description).toBe("<p>Members only.</p>");
    const search = await listed("search=members");
    expect(search).toEqual([]);
    expect(await listed("search=-nothing")).toEqual([]);
    // The password opens them to a search (tec-reference §6.3).
    const opened = await listed("search=members&password=s3cret");
    expect(opened.map((e) => e.id)).toEqual(occurrences.map((e) => e.id));
  });
});
