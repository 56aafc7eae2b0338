/**
 * The editor's screens by the URL's hash (`#/events`, `#/events/12`, `#/venues/new`,
 * `#/calendar/2027-03`): the page is one document at `/wp-admin/`, so a screen is a bookmarkable
 * hash and the browser's back button works. Hashes that do not start with `#/` (the skip link's
 * `#main`) change no screen.
 */
import { useEffect, useState } from "preact/hooks";

/** What a screen shows: a resource's list, or with `item` its form (`new` or an id). */
export type Resource =
  | "events"
  | "venues"
  | "organizers"
  | "calendar"
  | "categories"
  | "tags"
  | "webhooks"
  | "app-passwords";

/** A screen; `month` (`2027-03`) only for the calendar, whose `#/calendar` is this month. */
export interface Route {
  resource: Resource;
  item?: "new" | number;
  month?: string;
}

const RESOURCES: readonly Resource[] = [
  "events",
  "venues",
  "organizers",
  "calendar",
  "categories",
  "tags",
  "webhooks",
  "app-passwords",
];

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * The screen a hash names; the events list for anything else. `#/events/month/2027-03` is the
 * calendar's month too.
 * @example parseRoute("#/calendar/2027-03") // { resource: "calendar", month: "2027-03" }
 */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\//, "").split("/");
  if (parts[0] === "events" && parts[1] === "month") parts.splice(0, 2, "calendar");
  const [resource, item] = parts;
  const known = RESOURCES.find((r) => r === resource) ?? "events";
  if (known === "calendar")
    return MONTH.test(item ?? "") ? { resource: known, month: item } : { resource: known };
  if (item === "new") return { resource: known, item: "new" };
  const id = Number(item);
  return Number.isInteger(id) && id > 0 ? { resource: known, item: id } : { resource: known };
}

/** The hash of a screen. */
export const href = (route: Route) =>
  `#/${route.resource}${route.month ? `/${route.month}` : ""}${route.item === undefined ? "" : `/${route.item}`}`;

/** Goes to a screen. */
export function go(route: Route): void {
  location.hash = href(route);
}

/** The current screen, following the hash. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => {
      if (location.hash === "" || location.hash.startsWith("#/"))
        setRoute(parseRoute(location.hash));
    };
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  return route;
}
