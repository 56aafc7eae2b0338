/**
 * The editor's screens by the URL's hash (`#/events`, `#/events/12`, `#/venues/new`): the page is
 * one document at `/wp-admin/`, so a screen is a bookmarkable hash and the browser's back button
 * works. Hashes that do not start with `#/` (the skip link's `#main`) change no screen.
 */
import { useEffect, useState } from "preact/hooks";

/** A screen: the resource (`events`, `venues`, `organizers`) and, for a form, `new` or an id. */
export interface Route {
  resource: "events" | "venues" | "organizers";
  item?: "new" | number;
}

const RESOURCES = ["events", "venues", "organizers"] as const;

/** The screen a hash names; the events list for anything else. */
export function parseRoute(hash: string): Route {
  const [resource, item] = hash.replace(/^#\//, "").split("/");
  const known = RESOURCES.find((r) => r === resource) ?? "events";
  if (item === "new") return { resource: known, item: "new" };
  const id = Number(item);
  return Number.isInteger(id) && id > 0 ? { resource: known, item: id } : { resource: known };
}

/** The hash of a screen. */
export const href = (route: Route) =>
  `#/${route.resource}${route.item === undefined ? "" : `/${route.item}`}`;

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
