/**
 * The webhook event types (contract §7.5): `{kind}.{action}` for every object kind and action, plus the
 * coalesced `calendar.changed`. A webhook subscribes to a list of them; `"*"` stands for every
 * per-object type (not `calendar.changed`, which a build hook asks for by name).
 */

/** Object kinds, by their REST names (as `GET /deleted` names them). */
export const OBJECT_KINDS = ["event", "venue", "organizer", "category", "tag"] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** What happened to an object. */
export const ACTIONS = ["created", "updated", "trashed", "deleted"] as const;
export type Action = (typeof ACTIONS)[number];

/** The coalesced "something changed" type for build hooks. */
export const CALENDAR_CHANGED = "calendar.changed";

/** Sent by `POST /webhooks/{id}/ping`; nobody subscribes to it. */
export const PING = "ping";

/** Every per-object type: `event.created` … `tag.deleted`. */
export const OBJECT_TYPES = OBJECT_KINDS.flatMap((k) => ACTIONS.map((a) => `${k}.${a}`));

/** Every type a webhook can subscribe to, and the wildcard. */
export const SUBSCRIBABLE = new Set([...OBJECT_TYPES, CALENDAR_CHANGED, "*"]);

/**
 * Whether a webhook with these `events` receives `type`.
 * @example subscribes(["*"], "venue.trashed") // true
 * @example subscribes(["*"], "calendar.changed") // false
 */
export function subscribes(events: readonly string[], type: string): boolean {
  if (events.includes(type)) return true;
  return type !== CALENDAR_CHANGED && type !== PING && events.includes("*");
}

/** REST route segment of a kind: `event` → `events`, `category` → `categories`. */
export const ROUTE_OF: Record<ObjectKind, string> = {
  event: "events",
  venue: "venues",
  organizer: "organizers",
  category: "categories",
  tag: "tags",
};
