/**
 * The editor's event form state (src/editor/browser/event-state.ts) against the API's arguments
 * (§2.3, §2.4): what a create sends, and that an update names only what changed (contract §4
 * row 10) — the browser code itself is checked in Chromium by `npm run test:editor`.
 */
import { describe, expect, it } from "vitest";
import {
  argumentsOf,
  changedArguments,
  type EventRecord,
  newEvent,
  stateOf,
} from "../../src/editor/browser/event-state";

const RECORD: EventRecord = {
  id: 12,
  title: "Jazz night",
  description: "<p>Bring friends</p>",
  status: "draft",
  start_date: "2027-03-02 19:00:00",
  end_date: "2027-03-02 21:30:00",
  all_day: false,
  timezone: "Europe/Berlin",
  cost: "$15",
  website: "https://jazz.test/",
  image: { url: "https://img.test/a.jpg" },
  categories: [{ id: 5, name: "Music" }],
  tags: [],
  venue: { id: 7, venue: "Hall" },
  organizer: [{ id: 8, organizer: "Club" }],
  hide_from_listings: false,
  featured: true,
};

describe("the editor's event form state (§2.3, §2.4)", () => {
  it("reads an event answer into the form and back into the same arguments", () => {
    const state = stateOf(RECORD);
    expect(state).toMatchObject({
      startDate: "2027-03-02",
      startTime: "19:00",
      endTime: "21:30",
      venue: "7",
      organizers: [8],
      image: "https://img.test/a.jpg",
      password: "",
    });
    expect(argumentsOf(state)).toEqual({
      title: "Jazz night",
      description: "<p>Bring friends</p>",
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:30:00",
      all_day: false,
      timezone: "Europe/Berlin",
      cost: "$15",
      website: "https://jazz.test/",
      image: "https://img.test/a.jpg",
      categories: [5],
      tags: [],
      venue: 7,
      organizer: [8],
      status: "draft",
      hide_from_listings: false,
      featured: true,
    });
  });

  it('leaves an empty image, description and password out of a create (the API refuses "")', () => {
    const args = argumentsOf({ ...newEvent(), title: "New" });
    expect(args).not.toHaveProperty("image");
    expect(args).not.toHaveProperty("description");
    expect(args).not.toHaveProperty("password");
    expect(args.venue).toBe("");
  });

  it("sends whole days for an all-day event", () => {
    const args = argumentsOf({ ...stateOf(RECORD), allDay: true });
    expect(args.start_date).toBe("2027-03-02 00:00:00");
    expect(args.end_date).toBe("2027-03-02 23:59:59");
  });

  it("names only the changed fields in an update, removals included", () => {
    const before = stateOf(RECORD);
    expect(changedArguments(before, before)).toEqual({});
    expect(changedArguments(before, { ...before, title: "Jazz night II", venue: "" })).toEqual({
      title: "Jazz night II",
      venue: "",
    });
    expect(changedArguments(before, { ...before, image: "" })).toEqual({ image: "" });
    expect(changedArguments(before, { ...before, password: "secret" })).toEqual({
      password: "secret",
    });
    expect(changedArguments(before, { ...before, removePassword: true })).toEqual({ password: "" });
  });
});
