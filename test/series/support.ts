/**
 * Recurring series through the worker (contract §7.8): writes as the administrator, and what the
 * archive lists of them in a window.
 */
import { ADMIN, type ApiResponse, api, NS } from "../support/api";

/** A window around every date these tests use (the default one is relative to today). */
export const WINDOW = "start_date=2026-01-01&end_date=2031-12-31&per_page=50";

/** Creates an event (a series when `recurrence` is given), answering 201. */
export async function createEvent(json: Record<string, unknown>): Promise<any> {
  const res = await api(`${NS}/events`, {
    headers: ADMIN,
    json: { title: "Meetup", ...json },
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
  return res.body;
}

/** A write of one event (`PATCH`, or `DELETE` without `json`) as the administrator. */
export function change(
  id: number,
  json?: Record<string, unknown>,
  query = "",
): Promise<ApiResponse> {
  return api(`${NS}/events/${id}${query}`, {
    method: json ? "PATCH" : "DELETE",
    headers: ADMIN,
    json,
  });
}

/** What the archive lists anonymously (`query` after the window). */
export async function listed(query = "", headers: Record<string, string> = {}): Promise<any[]> {
  const res = await api(`${NS}/events?${WINDOW}${query ? `&${query}` : ""}`, { headers });
  if (res.status !== 200) throw new Error(`list answered ${res.status}: ${res.text}`);
  return res.body.events;
}

/** Each listed event's id, local start and UTC start, abbreviation. */
export const starts = (events: any[]) =>
  events.map((e) => [e.start_date, e.utc_start_date, e.timezone_abbr]);
