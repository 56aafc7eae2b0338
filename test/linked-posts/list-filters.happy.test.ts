import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";
import { KINDS, type Kind, seedLinked } from "./kinds";

let linked = 0;

/** Links a venue or organizer to a new event. */
function link(
  k: Kind,
  id: number,
  event: {
    title?: string;
    start?: string;
    status?: string;
    hidden?: boolean;
    author?: number;
  } = {},
) {
  return seedEvent({
    title: event.title ?? `Linked ${++linked}`,
    start: event.start ?? day(5),
    status: event.status,
    hidden: event.hidden,
    author: event.author,
    ...(k.kind === "venue" ? { venueId: id } : { organizerIds: [id] }),
  });
}

describe.each(KINDS)("GET /$plural?search= (§7.1)", (k) => {
  const { kind, plural, custom } = k;
  const names = async (query: string, headers: Record<string, string> = {}) => {
    const res = await api(`${NS}/${plural}?${query}`, { headers });
    expect(res.status, query).toBe(200);
    return { names: res.body[plural].map((p: any) => p[kind]), total: res.body.total };
  };

  it("needs every word in one and the same field, case-insensitively", async () => {
    await seedLinked(kind, { title: "Riverside Hall", content: "Near the old mill" });
    await seedLinked(kind, { title: "Mill Theatre", content: "By the riverside" });
    await seedLinked(kind, { title: "Unrelated", excerpt: "An OLD Riverside barn" });
    // "riverside" and "mill" occur in two different fields of the first two: not a match.
    expect(await names("search=riverside mill")).toEqual({ names: [], total: 0 });
    expect((await names("search=RIVERSIDE")).names.sort()).toEqual([
      "Mill Theatre",
      "Riverside Hall",
      "Unrelated",
    ]);
    expect(await names("search=old riverside")).toEqual({ names: ["Unrelated"], total: 1 });
    expect(await names("search=mill theatre")).toEqual({ names: ["Mill Theatre"], total: 1 });
  });

  it("splits on anything but letters, digits and hyphens, and finds substrings of custom fields", async () => {
    await seedLinked(kind, { title: "Custom One", [custom.field]: custom.value });
    await seedLinked(kind, { title: "Other" });
    const [first] = custom.value.split(/[^\p{L}\p{N}-]+/u);
    expect((await names(`search=${encodeURIComponent(custom.value)}`)).names).toEqual([
      "Custom One",
    ]);
    expect(
      (await names(`search=${encodeURIComponent(first.slice(1, -1).toUpperCase())}`)).names,
    ).toEqual(["Custom One"]);
  });

  it("matches short words and non-ASCII letters, case-insensitively", async () => {
    await seedLinked(kind, { title: "Halle München", content: "Saal B im EG" });
    await seedLinked(kind, { title: "Halle Berlin" });
    expect((await names("search=münchen")).names).toEqual(["Halle München"]);
    expect((await names("search=MÜNCHEN halle")).names).toEqual(["Halle München"]);
    expect((await names("search=eg b saal")).names).toEqual(["Halle München"]);
    expect((await names("search=x-ray")).names).toEqual([]);
  });

  it("treats LIKE wildcards and FTS syntax as plain text", async () => {
    await seedLinked(kind, { title: "100% Hall" });
    await seedLinked(kind, { title: "Plain Hall" });
    expect((await names("search=%25")).names).toEqual([]);
    expect((await names(`search=${encodeURIComponent('"plain hall"')}`)).names).toEqual([
      "Plain Hall",
    ]);
    expect((await names(`search=${encodeURIComponent('hall* "100')}`)).names).toEqual([
      "100% Hall",
    ]);
    expect((await names(`search=${encodeURIComponent("{title}:hall")}`)).names).toEqual([]);
    expect((await names("search=!!!")).total).toBe(0);
  });

  it("counts only the matches in total and pages through them", async () => {
    for (let i = 0; i < 3; i++) await seedLinked(kind, { title: `Match ${i}` });
    for (let i = 0; i < 4; i++) await seedLinked(kind, { title: `Other ${i}` });
    const res = await api(`${NS}/${plural}?search=match&per_page=2`);
    expect(res.body.total).toBe(3);
    expect(res.body.total_pages).toBe(2);
    expect(res.headers.get("x-wp-total")).toBe("3");
    expect(new URL(res.body.next_rest_url).searchParams.get("search")).toBe("match");
  });

  it("finds updated and created posts, forgets deleted ones (the index follows every write)", async () => {
    const created = await api(`${NS}/${plural}`, {
      json: { [kind]: "Fresh Place", description: "zebra crossing" },
      headers: ADMIN,
    });
    expect((await names("search=zebra", ADMIN)).names).toEqual(["Fresh Place"]);
    await api(`${NS}/${plural}/${created.body.id}`, {
      method: "PUT",
      json: { description: "giraffe" },
      headers: ADMIN,
    });
    expect((await names("search=zebra", ADMIN)).names).toEqual([]);
    expect((await names("search=giraffe", ADMIN)).names).toEqual(["Fresh Place"]);
    await api(`${NS}/${plural}/${created.body.id}`, { method: "DELETE", headers: ADMIN });
    // Trashed posts are never found by search, whatever the status asked for.
    expect((await names("search=giraffe&status=trash", ADMIN)).names).toEqual([]);
    expect((await names("status=trash", ADMIN)).names).toEqual(["Fresh Place"]);
    await api(`${NS}/${plural}/${created.body.id}?force=true`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect((await names("search=giraffe", ADMIN)).names).toEqual([]);
  });
});

describe.each(KINDS)(
  "GET /$plural: event, has_events, only_with_upcoming, modified_after (§7.1)",
  (k) => {
    const { kind, plural } = k;
    const ids = async (query: string, headers: Record<string, string> = {}) => {
      const res = await api(`${NS}/${plural}?${query}`, { headers });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body[plural].map((p: any) => p.id);
    };

    it("event: only what that event links to, whatever the event's status", async () => {
      const a = await seedLinked(kind, { title: "A" });
      const b = await seedLinked(kind, { title: "B" });
      const draftEvent = await link(k, a, { status: "draft" });
      await link(k, b);
      const empty = await seedEvent({ title: "Nothing linked", start: day(1) });
      // For viewers who may read the draft (to others it is no event).
      expect(await ids(`event=${draftEvent}`, ADMIN)).toEqual([a]);
      expect(await ids(`event=${empty}`)).toEqual([]);
    });

    it("event: organizers of an event with several, in one list", async () => {
      if (kind !== "organizer") return;
      const a = await seedLinked(kind, { title: "A", postDate: "2026-01-01 00:00:00" });
      const b = await seedLinked(kind, { title: "B", postDate: "2026-02-01 00:00:00" });
      await seedLinked(kind, { title: "C" });
      const event = await seedEvent({ title: "Two", start: day(1), organizerIds: [a, b] });
      expect(await ids(`event=${event}`)).toEqual([b, a]);
    });

    it("has_events: linked to an event that is not a draft or pending; false gives the others", async () => {
      const withPublished = await seedLinked(kind, {
        title: "Published event",
        postDate: "2026-01-04 00:00:00",
      });
      const withPast = await seedLinked(kind, {
        title: "Past event",
        postDate: "2026-01-03 00:00:00",
      });
      const withDraft = await seedLinked(kind, {
        title: "Draft only",
        postDate: "2026-01-02 00:00:00",
      });
      const none = await seedLinked(kind, { title: "No event", postDate: "2026-01-01 00:00:00" });
      await link(k, withPublished);
      await link(k, withPast, { start: day(-400) });
      await link(k, withDraft, { status: "draft" });
      await link(k, withDraft, { status: "pending" });
      expect(await ids("has_events=true")).toEqual([withPublished, withPast]);
      expect(await ids("has_events=YES")).toEqual([withPublished, withPast]);
      expect(await ids("has_events=false")).toEqual([withDraft, none]);
      expect(await ids("has_events=nope")).toEqual([withDraft, none]);
    });

    it("only_with_upcoming: linked to any upcoming event the user may see, not hidden — all of them, not a first page", async () => {
      const past = await seedLinked(kind, { title: "Past", postDate: "2026-01-05 00:00:00" });
      const hidden = await seedLinked(kind, { title: "Hidden", postDate: "2026-01-04 00:00:00" });
      const draft = await seedLinked(kind, { title: "Draft", postDate: "2026-01-03 00:00:00" });
      const late = await seedLinked(kind, { title: "Late", postDate: "2026-01-02 00:00:00" });
      await link(k, past, { start: day(-3) });
      await link(k, hidden, { hidden: true });
      await link(k, draft, { status: "draft" });
      // More upcoming events than a page of events holds, the linked one last (contract §4 row 21).
      for (let i = 0; i < 60; i++) await seedEvent({ title: `Filler ${i}`, start: day(1) });
      await link(k, late, { start: day(300) });
      expect(await ids("only_with_upcoming=1")).toEqual([late]);
      expect(await ids("only_with_upcoming=true", ADMIN)).toEqual([draft, late]);
      expect(await ids("only_with_upcoming=0")).toEqual([past, hidden, draft, late]);
    });

    it("only_with_upcoming: authors see upcoming events of their own drafts, not other people's", async () => {
      const author = await seedUser("author");
      const mine = await seedLinked(kind, { title: "Mine", postDate: "2026-01-02 00:00:00" });
      const theirs = await seedLinked(kind, { title: "Theirs", postDate: "2026-01-01 00:00:00" });
      await link(k, mine, { status: "draft", author: author.id });
      await link(k, theirs, { status: "draft" });
      expect(await ids("only_with_upcoming=1", author.headers)).toEqual([mine]);
    });

    it("filters combine by intersection", async () => {
      const a = await seedLinked(kind, { title: "Alpha hall" });
      const b = await seedLinked(kind, { title: "Beta hall" });
      const event = await link(k, a);
      await link(k, b);
      expect(await ids(`search=hall&event=${event}&has_events=1&only_with_upcoming=1`)).toEqual([
        a,
      ]);
      expect(await ids(`search=beta&event=${event}`)).toEqual([]);
    });

    it("modified_after: only posts changed after that instant (contract §7)", async () => {
      await seedLinked(kind, { title: "Old" });
      const created = await api(`${NS}/${plural}`, { json: { [kind]: "New" }, headers: ADMIN });
      expect(await ids("modified_after=2026-06-01")).toEqual([created.body.id]);
      expect((await ids("modified_after=2020-01-01")).length).toBe(2);
    });
  },
);
