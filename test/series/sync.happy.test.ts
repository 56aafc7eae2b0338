/**
 * Recurring series for mirrors (contract §7.3, contract §7.5, contract §7.8): `modified_after`
 * lists the occurrences a change touched, `/deleted` those that went; a change of a series is one `event.updated` for the
 * series (and counts once in `calendar.changed`), an occurrence changed on its own one for it.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
import { ADMIN, api, NS } from "../support/api";
import { type Driven, drive } from "../webhooks/driven";
import { startReceiver } from "../webhooks/receiver";
import { listed, WINDOW } from "./support";

const SERIES = {
  title: "Meetup",
  start_date: "2027-03-02 19:00:00",
  end_date: "2027-03-02 21:00:00",
  recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
};

/** Everything written so far, as if long ago (a write elsewhere: the isolate is told). */
async function age() {
  await env.DB.batch([
    env.DB.prepare("UPDATE events SET changed_gmt = '2026-01-01 00:00:00'"),
    env.DB.prepare("UPDATE event_occurrences SET changed_gmt = '2026-01-01 00:00:00'"),
  ]);
  forgetVersion();
}

const changedSince = async () =>
  (await listed("modified_after=2026-06-01T00:00:00Z")).map((e) => e.id);

describe("modified_after and /deleted", () => {
  it("report the occurrences a change touched, and those that went", async () => {
    const s = (await api(`${NS}/events`, { headers: ADMIN, json: SERIES })).body;
    const weeks = (await listed()).map((e) => e.id);
    await age();
    expect(await changedSince()).toEqual([]);
    // One occurrence changed on its own: only it.
    await api(`${NS}/events/${weeks[2]}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Three" },
    });
    expect(await changedSince()).toEqual([weeks[2]]);
    await age();
    // The series changed: every occurrence shows the change.
    await api(`${NS}/events/${s.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { description: "New" },
    });
    expect(await changedSince()).toEqual(weeks);
    await age();
    // An occurrence deleted: the series changed (its lines), the occurrence is in the log.
    await api(`${NS}/events/${weeks[1]}`, { method: "DELETE", headers: ADMIN });
    expect(await changedSince()).toEqual([weeks[0], weeks[2], weeks[3]]);
    const log = await api(`${NS}/deleted?modified_after=2026-06-01T00:00:00Z&type=event`);
    expect(log.body.deleted.map((d: any) => [d.id, d.status, d.series])).toEqual([
      [weeks[1], "cancelled", { id: s.id, occurrence_start: "2027-03-09 19:00:00" }],
    ]);
  });
});

let receiver: ReturnType<typeof startReceiver>;
let hooks: Driven;
beforeEach(() => {
  receiver = startReceiver();
  hooks = drive();
});
afterEach(() => receiver.stop());

/** The per-object messages queued so far: type and id. */
const queued = () =>
  hooks.queue.pending
    .filter((q) => q.body.kind === "deliver")
    .map((q) => {
      const body = JSON.parse((q.body as { body: string }).body);
      return [body.type, body.data.id];
    });

describe("webhooks", () => {
  it("one event.created for a new series, one event.updated per change of it or of one occurrence", async () => {
    await hooks.register({ url: "https://hooks.test/all", events: ["*"] });
    const s = (await hooks.api(`${NS}/events`, { headers: ADMIN, json: SERIES })).body;
    const weeks = (await listed()).map((e) => e.id);
    expect(queued()).toEqual([["event.created", s.id]]);
    await hooks.run();
    await hooks.api(`${NS}/events/${weeks[1]}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Two" },
    });
    expect(queued()).toEqual([["event.updated", weeks[1]]]);
    await hooks.run();
    // The series changes, with an override it is copied to: one message, for the series.
    await hooks.api(`${NS}/events/${s.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: {
        description: "New",
        start_date: "2027-03-02 18:00:00",
        end_date: "2027-03-02 20:00:00",
      },
    });
    expect(queued()).toEqual([["event.updated", s.id]]);
    await hooks.run();
    await hooks.api(`${NS}/events/${weeks[1]}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { featured: true },
    });
    expect(queued()).toEqual([["event.updated", weeks[1]]]);
    await hooks.run();
    await hooks.api(`${NS}/events/${weeks[2]}`, { method: "DELETE", headers: ADMIN });
    expect(queued()).toEqual([["event.updated", s.id]]);
    await hooks.run();
    await hooks.api(`${NS}/events/${s.id}`, { method: "DELETE", headers: ADMIN });
    expect(queued()).toEqual([["event.trashed", s.id]]);
  });

  it("a series change counts once in calendar.changed", async () => {
    const s = (await api(`${NS}/events`, { headers: ADMIN, json: SERIES })).body;
    const weeks = (await listed()).map((e) => e.id);
    await api(`${NS}/events/${weeks[1]}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Two" },
    });
    await hooks.register({
      url: "https://hooks.test/build",
      events: ["calendar.changed"],
      coalesce_seconds: 3,
    });
    await hooks.api(`${NS}/events/${s.id}`, {
      method: "PATCH",
      headers: ADMIN,
      json: { title: "Weekly" },
    });
    await hooks.advance(5);
    const [delivery] = receiver.ofType("calendar.changed");
    expect(delivery.body.data).toMatchObject({ changes: 1, kinds: { event: 1 } });
    expect((await listed()).map((e) => e.title)).toEqual(["Weekly", "Two", "Weekly", "Weekly"]);
    expect(WINDOW).toContain("start_date");
  });
});
