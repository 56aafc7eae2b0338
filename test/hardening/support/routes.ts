/**
 * The routes under attack, each with the argument specs its handlers validate with (taken from src, so
 * a generated poison is checked against the real schema), the paths it answers, the paths that name
 * nothing acceptable, and who is always refused.
 */
import fc from "fast-check";
import { ARCHIVE_ARGS, SINGLE_ARGS, SLUG_ARGS } from "../../../src/events/args";
import * as wpPosts from "../../../src/events/wp-post";
import {
  CREATE_ARGS,
  DELETE_ARGS,
  EDIT_ARGS,
  EDIT_BY_SLUG_ARGS,
} from "../../../src/events/write-args";
import type { ArgSpecs } from "../../../src/http/args";
import * as linked from "../../../src/linked-posts/args";
import { LINKED } from "../../../src/linked-posts/kinds";
import { MEDIA_CREATE_ARGS, MEDIA_SINGLE_ARGS } from "../../../src/media/args";
import { MEDIA_LIST_ARGS } from "../../../src/media/list";
import * as wpTypes from "../../../src/root/wp-types";
import { DELETED_ARGS } from "../../../src/sync/args";
import { archiveArgs, singleArgs, writeArgs } from "../../../src/terms/args";
import { CATEGORIES, TAGS, type TaxonomyInfo } from "../../../src/terms/taxonomies";
import * as wpTerms from "../../../src/terms/wp";
import * as users from "../../../src/users/args";
import type { Method } from "./encode";
import { nastyString } from "./values";
import type { Actor, World } from "./world";

export const NS = "/wp-json/tribe/events/v1";
export const WP = "/wp-json/wp/v2";

/** One method of a route. */
export interface MethodSpec {
  /** What the handler validates (path variables are skipped). */
  args: ArgSpecs;
  /** Whether the handler reads the query and body at all (so body and query poisons reach it). */
  parses: boolean;
  /** Actors refused whatever they send (401/403), on every path of the route. */
  forbidden: Actor[];
  /** Values that pass the schema but name nothing, refused once looked up in D1 (400). */
  refPoisons?: (w: World) => Record<string, fc.Arbitrary<unknown>>;
  /** Valid, hostile values for arguments whose schema accepts anything (nested venues, term lists). */
  shapes?: (w: World) => Record<string, fc.Arbitrary<unknown>>;
}

export interface RouteSpec {
  /** e.g. `ns /events/{id}`. */
  name: string;
  /** Paths that name something that exists (or the route's only path). */
  path: (w: World) => fc.Arbitrary<string>;
  /** Paths that match the route but name nothing acceptable for `method`: a 4xx for every actor. */
  badPath?: (w: World, method: Method) => fc.Arbitrary<string> | null;
  methods: Partial<Record<Method, MethodSpec>>;
}

const WRITES: Method[] = ["POST", "PUT", "PATCH"];
const ALL_BUT_ADMIN: Actor[] = ["anonymous", "editor", "author", "contributor", "subscriber"];

/** A path segment from hostile text, percent-encoded (or raw, broken, when that is the point). */
const segment = (s: string) => {
  try {
    return encodeURIComponent(s).replace(/%2F/gi, "%252F") || "x";
  } catch {
    return "x%ED%A0%80";
  }
};
const unknownSlug = fc.oneof(
  nastyString.map((s) => `nope-${segment(s)}`),
  fc.constantFrom(
    "nope-%zz",
    "nope-%",
    "nope-%00",
    "nope-%ff%fe",
    "%C0%AF",
    `nope-${"z".repeat(3000)}`,
    "NOPE-UPPER",
    "nope%2Fslash",
  ),
);
const bigIds = fc.constantFrom(
  "0",
  "00",
  "9".repeat(30),
  "9".repeat(400),
  "9007199254740993",
  "18446744073709551616",
  "999999",
);

const nestedLinked = (kind: "venue" | "organizer") =>
  fc.record<Record<string, unknown>>(
    {
      [kind]: nastyString.filter((s) => s.trim() !== "" && s !== "0"),
      description: nastyString,
      ...(kind === "venue"
        ? { city: nastyString, geo_lat: fc.constantFrom("45", "-90", "0") }
        : { email: nastyString }),
      website: fc.constantFrom("https://ex.example/a?b=<c>", "", "mailto:a@b.co"),
    } as Record<string, fc.Arbitrary<unknown>>,
    { requiredKeys: [kind] },
  );

/** Venue/organizer given with an event: ids, comma lists, objects (new ones with hostile names), lists of them. */
function linkedShape(w: World, kind: "venue" | "organizer") {
  const posts = kind === "venue" ? w.venues : w.organizers;
  const ids = fc.constantFrom(posts.publish, posts.draft, posts.protected, posts.trash);
  return fc.oneof(
    ids,
    ids.map(String),
    fc.tuple(ids, ids).map(([a, b]) => `${a},${b}`),
    nestedLinked(kind),
    fc.array(
      fc.oneof(
        ids,
        nestedLinked(kind),
        ids.map((id) => ({ id })),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    fc.constantFrom("", 0, [], null),
  );
}

function termShape(w: World, taxonomy: "categories" | "tags") {
  const known =
    taxonomy === "categories"
      ? [w.categories.parent, w.categories.child, ...w.categories.names]
      : [w.tags.one, w.tags.two, ...w.tags.names];
  const ref = fc.oneof(
    fc.constantFrom(...known),
    nastyString.filter((s) => s.trim() !== "" && s.length <= 200 && !s.includes(",")),
  );
  return fc.oneof(
    ref,
    fc.array(ref, { minLength: 1, maxLength: 5 }),
    fc.array(ref, { minLength: 1, maxLength: 5 }).map((a) => a.join(",")),
    fc.constantFrom("", []),
  );
}

/** References that pass validation but exist nowhere (refused after the D1 lookup). */
const unknownRefs = (prefix: string) =>
  nastyString
    .map((s) => `${prefix}-${s}`.slice(0, 150).replace(/,/g, ";"))
    .filter((s) => s.trim() !== "");

function eventRoutes(): RouteSpec[] {
  const forbidden: Actor[] = ["anonymous", "subscriber"];
  const shapes = (w: World) => ({
    venue: linkedShape(w, "venue"),
    organizer: linkedShape(w, "organizer"),
    categories: termShape(w, "categories"),
    tags: termShape(w, "tags"),
  });
  const listRefs = (w: World) => ({
    categories: unknownRefs("no-such-category"),
    tags: unknownRefs("no-such-tag"),
    venue: fc.constantFrom(w.events.publish, w.organizers.publish, 999999, w.media),
    organizer: fc.constantFrom(w.events.publish, w.venues.publish, 999999),
    post_parent: fc.constantFrom(w.venues.publish, 999999, w.media),
    status: fc.constantFrom("draft", "publish,private", "trash", "pending,draft"),
  });
  return [
    {
      name: "ns /events",
      path: () => fc.constant(`${NS}/events`),
      methods: {
        GET: { args: ARCHIVE_ARGS, parses: true, forbidden: [], refPoisons: listRefs },
        POST: { args: CREATE_ARGS, parses: true, forbidden, shapes },
      },
    },
    {
      name: "ns /events.ics",
      path: () => fc.constant(`${NS}/events.ics`),
      methods: { GET: { args: ARCHIVE_ARGS, parses: true, forbidden: [], refPoisons: listRefs } },
    },
    {
      name: "ns /events/{id}",
      path: (w) =>
        fc
          .constantFrom(
            w.events.publish,
            w.events.draft,
            w.events.pending,
            w.events.private,
            w.events.protected,
          )
          .map((id) => `${NS}/events/${id}`),
      badPath: (w, method) =>
        fc
          .oneof(
            bigIds,
            fc.constantFrom(
              w.venues.publish,
              w.organizers.draft,
              w.media,
              ...(method === "GET" || method === "HEAD" ? [w.events.trash] : []),
            ),
          )
          .map((id) => `${NS}/events/${id}`),
      methods: {
        GET: { args: SINGLE_ARGS, parses: true, forbidden: [] },
        DELETE: { args: { ...SINGLE_ARGS, ...DELETE_ARGS }, parses: true, forbidden },
        ...Object.fromEntries(
          WRITES.map((m) => [m, { args: EDIT_ARGS, parses: true, forbidden, shapes }]),
        ),
      },
    },
    {
      name: "ns /events/by-slug/{slug}",
      path: (w) =>
        fc
          .constantFrom(
            w.events.slugs.publish,
            w.events.slugs.draft,
            w.events.slugs.protected,
            "EVENT-PUBLISH",
          )
          .map((s) => `${NS}/events/by-slug/${s}`),
      badPath: (w, method) =>
        fc
          .oneof(
            unknownSlug,
            fc.constantFrom(
              ...(method === "GET" || method === "HEAD" ? [w.events.slugs.trash] : ["nope"]),
            ),
          )
          .map((s) => `${NS}/events/by-slug/${s}`),
      methods: {
        GET: { args: SLUG_ARGS, parses: true, forbidden: [] },
        DELETE: { args: { ...SLUG_ARGS, ...DELETE_ARGS }, parses: true, forbidden },
        ...Object.fromEntries(
          WRITES.map((m) => [m, { args: EDIT_BY_SLUG_ARGS, parses: true, forbidden, shapes }]),
        ),
      },
    },
  ];
}

function linkedRoutes(kind: "venue" | "organizer"): RouteSpec[] {
  const plural = LINKED[kind].plural;
  const posts = (w: World) => (kind === "venue" ? w.venues : w.organizers);
  const forbidden: Actor[] = ["anonymous", "subscriber"];
  const other = (w: World) => (kind === "venue" ? w.organizers : w.venues);
  return [
    {
      name: `ns /${plural}`,
      path: () => fc.constant(`${NS}/${plural}`),
      methods: {
        GET: {
          args: linked.ARCHIVE_ARGS[kind],
          parses: true,
          forbidden: [],
          refPoisons: (w) => ({
            event: fc.constantFrom(w.venues.publish, w.organizers.publish, w.media, 999999),
            status: fc.constantFrom("draft", "private,publish", "trash"),
          }),
        },
        POST: { args: LINKED[kind].args, parses: true, forbidden },
      },
    },
    {
      name: `ns /${plural}/{id}`,
      path: (w) =>
        fc
          .constantFrom(posts(w).publish, posts(w).draft, posts(w).protected, posts(w).private)
          .map((id) => `${NS}/${plural}/${id}`),
      badPath: (w) =>
        fc
          .oneof(bigIds, fc.constantFrom(w.events.publish, other(w).publish, w.media))
          .map((id) => `${NS}/${plural}/${id}`),
      methods: {
        GET: { args: linked.SINGLE_ARGS[kind], parses: true, forbidden: [] },
        DELETE: {
          args: { ...linked.SINGLE_ARGS[kind], ...linked.DELETE_ARGS[kind] },
          parses: true,
          forbidden,
        },
        ...Object.fromEntries(
          WRITES.map((m) => [m, { args: linked.EDIT_ARGS[kind], parses: true, forbidden }]),
        ),
      },
    },
    {
      name: `ns /${plural}/by-slug/{slug}`,
      path: (w) =>
        fc
          .constantFrom(posts(w).slugs.publish, posts(w).slugs.draft, posts(w).slugs.protected)
          .map((s) => `${NS}/${plural}/by-slug/${s}`),
      badPath: (w) =>
        fc
          .oneof(unknownSlug, fc.constant(w.events.slugs.publish))
          .map((s) => `${NS}/${plural}/by-slug/${s}`),
      methods: {
        GET: { args: linked.SLUG_ARGS[kind], parses: true, forbidden: [] },
        DELETE: {
          args: { ...linked.SLUG_ARGS[kind], ...linked.DELETE_ARGS[kind] },
          parses: true,
          forbidden,
        },
        ...Object.fromEntries(
          WRITES.map((m) => [m, { args: linked.EDIT_BY_SLUG_ARGS[kind], parses: true, forbidden }]),
        ),
      },
    },
  ];
}

function termRoutes(info: TaxonomyInfo): RouteSpec[] {
  const forbidden: Actor[] = info.hierarchical
    ? ["anonymous", "subscriber", "contributor"]
    : ["anonymous", "subscriber", "contributor", "author"];
  const mine = (w: World) =>
    info.hierarchical ? [w.categories.parent, w.categories.child] : [w.tags.one, w.tags.two];
  const others = (w: World) =>
    info.hierarchical ? [w.tags.one, w.tags.two] : [w.categories.parent, w.categories.child];
  return [
    {
      name: `ns /${info.base}`,
      path: () => fc.constant(`${NS}/${info.base}`),
      methods: {
        GET: {
          args: archiveArgs(info),
          parses: true,
          forbidden: [],
          refPoisons: (w) => ({
            include: unknownRefs("no-such-term"),
            exclude: unknownRefs("no-such-term"),
            post: fc.constantFrom(w.venues.publish, w.media, 999999),
            event: fc.constantFrom(w.organizers.publish, 999999),
            ...(info.hierarchical ? { parent: fc.constantFrom(...others(w), 999999) } : {}),
          }),
        },
        POST: { args: writeArgs(info, true), parses: true, forbidden },
      },
    },
    {
      name: `ns /${info.base}/{id}`,
      path: (w) => fc.constantFrom(...mine(w)).map((id) => `${NS}/${info.base}/${id}`),
      badPath: (w) =>
        fc
          .oneof(bigIds, fc.constantFrom(...others(w), w.events.publish))
          .map((id) => `${NS}/${info.base}/${id}`),
      methods: {
        GET: { args: singleArgs(info), parses: true, forbidden: [] },
        DELETE: { args: singleArgs(info), parses: true, forbidden },
        ...Object.fromEntries(
          WRITES.map((m) => [m, { args: writeArgs(info, false), parses: true, forbidden }]),
        ),
      },
    },
  ];
}

function wpRoutes(): RouteSpec[] {
  const someone = (w: World) =>
    fc.constantFrom(
      w.people.editor.id,
      w.people.author.id,
      w.people.subscriber.id,
      w.people.contributor.id,
    );
  const nobody = fc.constantFrom("0", "999999", "9".repeat(30), "9".repeat(400));
  const self: MethodSpec = { args: users.UPDATE_ARGS, parses: true, forbidden: ["anonymous"] };
  const noArgs: ArgSpecs = {};
  return [
    {
      name: "wp /users",
      path: () => fc.constant(`${WP}/users`),
      methods: {
        GET: { args: users.LIST_ARGS, parses: true, forbidden: ALL_BUT_ADMIN },
        POST: { args: users.CREATE_ARGS, parses: true, forbidden: ALL_BUT_ADMIN },
      },
    },
    {
      name: "wp /users/me",
      path: () => fc.constant(`${WP}/users/me`),
      methods: {
        GET: { args: noArgs, parses: false, forbidden: ["anonymous"] },
        POST: self,
        PUT: self,
        PATCH: self,
      },
    },
    {
      name: "wp /users/{id}",
      path: (w) => someone(w).map((id) => `${WP}/users/${id}`),
      badPath: () => nobody.map((id) => `${WP}/users/${id}`),
      methods: {
        GET: { args: users.SINGLE_ARGS, parses: true, forbidden: ["anonymous"] },
        DELETE: { args: users.DELETE_ARGS, parses: true, forbidden: ALL_BUT_ADMIN },
        ...Object.fromEntries(WRITES.map((m) => [m, self])),
      },
    },
    {
      name: "wp /users/{id}/application-passwords",
      path: (w) =>
        fc
          .oneof(someone(w).map(String), fc.constant("me"))
          .map((id) => `${WP}/users/${id}/application-passwords`),
      badPath: () => nobody.map((id) => `${WP}/users/${id}/application-passwords`),
      methods: {
        GET: { args: noArgs, parses: false, forbidden: ["anonymous"] },
        POST: { args: users.APP_PASSWORD_CREATE_ARGS, parses: true, forbidden: ["anonymous"] },
        DELETE: { args: noArgs, parses: false, forbidden: ["anonymous"] },
      },
    },
    {
      name: "wp /users/{id}/application-passwords/{uuid}",
      path: (w) =>
        fc
          .constantFrom(w.people.editor, w.people.author, w.people.subscriber)
          .map((p) => `${WP}/users/${p.id}/application-passwords/${p.uuid}`),
      badPath: (w) =>
        fc.oneof(
          fc
            .tuple(fc.constantFrom("me", String(w.people.author.id)), fc.uuid())
            .map(([id, uuid]) => `${WP}/users/${id}/application-passwords/${uuid}`),
          fc
            .tuple(nobody, fc.constant(w.people.author.uuid))
            .map(([id, uuid]) => `${WP}/users/${id}/application-passwords/${uuid}`),
          unknownSlug.map((s) => `${WP}/users/me/application-passwords/${s}`),
        ),
      methods: {
        GET: { args: noArgs, parses: false, forbidden: ["anonymous"] },
        DELETE: { args: noArgs, parses: false, forbidden: ["anonymous"] },
      },
    },
    {
      name: "wp /media",
      path: () => fc.constant(`${WP}/media`),
      methods: {
        GET: { args: MEDIA_LIST_ARGS, parses: true, forbidden: [] },
        POST: {
          args: MEDIA_CREATE_ARGS,
          parses: true,
          forbidden: ["anonymous", "subscriber", "contributor"],
        },
      },
    },
    {
      name: "wp /media/{id}",
      path: (w) => fc.constant(`${WP}/media/${w.media}`),
      badPath: (w) =>
        fc
          .oneof(bigIds, fc.constantFrom(w.events.publish, w.venues.publish))
          .map((id) => `${WP}/media/${id}`),
      methods: { GET: { args: MEDIA_SINGLE_ARGS, parses: true, forbidden: [] } },
    },
    ...wpReadRoutes(),
  ];
}

/** The read-only wp/v2 routes the `_links` of terms and posts name (contract §3). */
function wpReadRoutes(): RouteSpec[] {
  const read = (args: ArgSpecs) => ({ GET: { args, parses: true, forbidden: [] } });
  const terms = (info: TaxonomyInfo): RouteSpec[] => [
    {
      name: `wp /${info.wpBase}`,
      path: () => fc.constant(`${WP}/${info.wpBase}`),
      methods: read(wpTerms.wpTermListArgs(info)),
    },
    {
      name: `wp /${info.wpBase}/{id}`,
      path: (w) =>
        fc.constant(`${WP}/${info.wpBase}/${info === TAGS ? w.tags.one : w.categories.child}`),
      badPath: (w) =>
        fc
          .oneof(bigIds, fc.constant(info === TAGS ? w.categories.parent : w.tags.two))
          .map((id) => `${WP}/${info.wpBase}/${id}`),
      methods: read(wpTerms.WP_TERM_ARGS),
    },
  ];
  return [
    {
      name: "wp /tribe_events",
      path: () => fc.constant(`${WP}/tribe_events`),
      methods: read(wpPosts.LIST_ARGS),
    },
    {
      name: "wp /tribe_events/{id}",
      path: (w) =>
        fc
          .constantFrom(w.events.publish, w.events.protected)
          .map((id) => `${WP}/tribe_events/${id}`),
      badPath: (w) =>
        fc
          .oneof(bigIds, fc.constantFrom(w.venues.publish, w.media))
          .map((id) => `${WP}/tribe_events/${id}`),
      methods: read(wpPosts.SINGLE_ARGS),
    },
    {
      name: "wp /types",
      path: () => fc.constant(`${WP}/types`),
      methods: read(wpTypes.TYPE_LIST_ARGS),
    },
    {
      name: "wp /types/{type}",
      path: () => fc.constant(`${WP}/types/tribe_events`),
      badPath: () => fc.constantFrom(`${WP}/types/post`, `${WP}/types/tribe_venue`),
      methods: read(wpTypes.TYPE_ARGS),
    },
    {
      name: "wp /taxonomies",
      path: () => fc.constant(`${WP}/taxonomies`),
      methods: read(wpTypes.TAXONOMY_LIST_ARGS),
    },
    {
      name: "wp /taxonomies/{taxonomy}",
      path: () => fc.constantFrom(`${WP}/taxonomies/post_tag`, `${WP}/taxonomies/tribe_events_cat`),
      badPath: () => fc.constant(`${WP}/taxonomies/category`),
      methods: read(wpTypes.TAXONOMY_ARGS),
    },
    ...terms(TAGS),
    ...terms(CATEGORIES),
  ];
}

function rootRoutes(): RouteSpec[] {
  return [
    {
      name: "ns / (index)",
      path: () => fc.constantFrom(NS, `${NS}/`),
      methods: { GET: { args: {}, parses: true, forbidden: [] } },
    },
    {
      name: "ns /doc",
      path: () => fc.constant(`${NS}/doc`),
      methods: { GET: { args: {}, parses: false, forbidden: [] } },
    },
    {
      name: "ns /deleted",
      path: () => fc.constant(`${NS}/deleted`),
      methods: { GET: { args: DELETED_ARGS, parses: true, forbidden: [] } },
    },
    {
      name: "wp-json / (REST index)",
      path: () => fc.constantFrom("/wp-json", "/wp-json/"),
      methods: { GET: { args: {}, parses: false, forbidden: [] } },
    },
  ];
}

/** Every route of the API, by name. */
export const ROUTES: RouteSpec[] = [
  ...rootRoutes(),
  ...eventRoutes(),
  ...linkedRoutes("venue"),
  ...linkedRoutes("organizer"),
  ...termRoutes(CATEGORIES),
  ...termRoutes(TAGS),
  ...wpRoutes(),
];

export const route = (name: string): RouteSpec => {
  const found = ROUTES.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};

/** Path variables: never sent as parameters (the path wins anyway). */
export const PATH_ARGS = new Set(["id", "slug", "uuid", "type", "taxonomy"]);
