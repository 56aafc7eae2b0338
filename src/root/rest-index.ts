/**
 * The WordPress REST index `GET /wp-json/` (WordPress `WP_REST_Server::get_index`; contract §7.4): what
 * generic WordPress clients read after following the `Link: <…/wp-json/>; rel="https://api.w.org/"`
 * header of any answer, to learn the site and build their route table. Its `routes` are the entries
 * of the namespace indexes (src/root/namespace-index.ts), from the same route registry and argument
 * specs, with descriptions in the request's language.
 */

import { type DateTime, IANAZone } from "luxon";
import type { AppContext } from "../http/context";
import { requestNow } from "../http/context";
import { loadStrings, text } from "../i18n";
import { resolveZone } from "../time/zone";
import { type DescribedGroup, links, routeEntries } from "./namespace-index";

/**
 * WordPress's `gmt_offset` and `timezone_string` for the site zone: an IANA zone (`UTC` included)
 * is the `timezone_string` and its offset now, in hours; a fixed `UTC±H[:MM]` offset has no
 * `timezone_string`, as in WordPress's settings.
 * @example siteZone("Europe/Berlin", DateTime.fromISO("2026-07-01T00:00Z")) // { gmtOffset: 2, timezoneString: "Europe/Berlin" }
 */
export function siteZone(
  name: string,
  now: DateTime,
): { gmtOffset: number; timezoneString: string } {
  const zone = resolveZone(name);
  const offsetMinutes = zone ? zone.offset(now.toMillis()) : 0;
  const gmtOffset = Math.round((offsetMinutes / 60) * 100) / 100;
  const timezoneString =
    zone instanceof IANAZone ? zone.name : /^(utc|gmt|z)$/i.test(name.trim()) ? "UTC" : "";
  return { gmtOffset, timezoneString };
}

/**
 * The REST index: `name`, `description` (strings `site.*`), `url` (where the API lives, with the
 * language prefix), `home` (the public site), `gmt_offset`, `timezone_string`, the front-page
 * options of a site without pages, `namespaces`, `authentication` (application passwords and their
 * authorization page), `routes` of every group, the site logo and icon (none), `_links.help`.
 * @param groups the index's own group first, then every namespace's groups in registration order.
 */
export async function restIndex(c: AppContext, groups: DescribedGroup[]) {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const settings = c.get("settings");
  const urls = c.get("urls");
  const url = urls.apiRoot.slice(0, -(settings.restPrefix.length + 2));
  const zone = siteZone(settings.siteTimezone, requestNow(c));
  const namespaces = [...new Set(groups.map((g) => g.namespace(settings)).filter((n) => n !== ""))];
  return {
    name: text(strings, "site.name"),
    description: text(strings, "site.description"),
    url,
    home: urls.site,
    gmt_offset: zone.gmtOffset,
    timezone_string: zone.timezoneString,
    page_for_posts: 0,
    page_on_front: 0,
    show_on_front: "posts",
    namespaces,
    authentication: {
      "application-passwords": {
        endpoints: { authorization: `${url}/wp-admin/authorize-application.php` },
      },
    },
    routes: routeEntries(c, groups, strings),
    site_logo: 0,
    site_icon: 0,
    site_icon_url: "",
    ...links({ help: [{ href: "https://developer.wordpress.org/rest-api/" }] }),
  };
}
