/**
 * Values for the arguments of a route (support/fuzz.ts): pools of hostile values per argument name,
 * and the two ways a request uses them — valid but hostile (accepted by the argument's schema from
 * src, after encoding), or poisoned (refused by it).
 */
import fc from "fast-check";
import * as v from "valibot";
import type { Arg } from "../../../src/http/args";
import { type Container, decoded } from "./encode";
import { type MethodSpec, PATH_ARGS } from "./routes";
import { jsonValue, NASTY_IDS, nastyDate, nastyString } from "./values";
import { POST_PASSWORD, type World } from "./world";

const DATE_ARGS = new Set([
  "start_date",
  "end_date",
  "starts_before",
  "starts_after",
  "ends_before",
  "ends_after",
  "modified_after",
  "date",
  "date_utc",
]);
const ID_ARGS = new Set([
  "page",
  "per_page",
  "event",
  "post",
  "post_parent",
  "author",
  "reassign",
  "parent",
  "width",
  "height",
]);
const VALID_DATES = [
  "2027-01-01 10:00:00",
  "tomorrow 9am",
  "+1 week",
  "next wednesday 4pm",
  "1798761600",
  "2027-03-28T02:30:00+01:00",
  "yesterday",
  "2026-12-31",
];
const URLS = [
  "https://cdn.example.com/a.jpg",
  "http://x.example/y.PNG?q=<b>&r='",
  "https://ex.example/%F0%9F%98%80.webp",
  "javascript:alert(1)",
  "data:image/png;base64,AAAA",
  "ftp://x.example/y.gif",
  "https://",
  "//no-scheme.example/a.jpg",
  `https://a.example/${"x".repeat(3000)}.jpg`,
];

/**
 * Lists around and far past the documented maximum of 100 items (no size may make a 5xx; D1
 * allows 100 bound parameters per statement), as comma lists, arrays and (JSON) objects, of ids,
 * repeated ids, names and mixtures.
 */
function longList(ids: number[], json: boolean): fc.Arbitrary<unknown> {
  const sizes = fc.constantFrom(33, 34, 35, 50, 99, 100, 101, 150, 1000);
  return sizes.chain((n) => {
    const id = (i: number) => ids[i % ids.length];
    const shapes: unknown[] = [
      Array.from({ length: n }, (_, i) => id(i)).join(","),
      Array.from({ length: n }, (_, i) => String(i + 1)),
      Array.from({ length: n }, (_, i) => `name ${i}`),
      Array.from({ length: n }, (_, i) => (i % 2 ? `name ${i}` : String(id(i)))),
    ];
    if (json)
      shapes.push(Array.from({ length: n }, (_, i) => (i % 3 ? id(i) : { organizer: `Org ${i}` })));
    return fc.constantFrom(...shapes);
  });
}

export function pool(
  name: string,
  spec: Arg,
  w: World,
  container: Container,
): fc.Arbitrary<unknown> {
  const json = container === "json";
  const wrongTypes = fc.constantFrom<unknown>(
    "",
    "0",
    [],
    {},
    ["a", "b"],
    { a: "b" },
    { a: { b: { c: "d" } } },
    ...(json ? [true, 3.5, -7, 0, [1, [2]]] : []),
  );
  const any = json ? fc.oneof(nastyString, jsonValue) : nastyString;
  const ids = [
    w.events.publish,
    w.venues.publish,
    w.organizers.publish,
    w.media,
    w.people.author.id,
    w.categories.parent,
    w.tags.one,
    1,
    2,
    50,
    51,
    1000,
    999999,
  ];
  let specific: fc.Arbitrary<unknown>;
  if (DATE_ARGS.has(name)) specific = fc.oneof(fc.constantFrom(...VALID_DATES), nastyDate);
  else if (ID_ARGS.has(name))
    specific = fc.oneof(
      fc.constantFrom(...ids),
      fc.constantFrom(...NASTY_IDS),
      ...(json ? [fc.integer(), fc.double()] : []),
    );
  else if (
    spec.type === "boolean" ||
    /^(show_map|show_map_link|featured|sticky|hide_from_listings|ticketed|all_day|geoloc|force|hide_empty)$/.test(
      name,
    )
  )
    specific = fc.constantFrom<unknown>(
      "true",
      "false",
      "1",
      "0",
      "TRUE",
      "yes",
      "on",
      "",
      "2",
      ...(json ? [true, false, 0, 1, 2] : []),
    );
  else if (name === "status")
    specific = fc.constantFrom(
      "publish",
      "draft",
      "pending",
      "private",
      "trash",
      "future",
      "publish,draft",
      "any",
      "inherit",
      "auto-draft",
      "Publish",
    );
  else if (name === "type")
    // `/deleted`'s kinds (contract §7).
    specific = fc.constantFrom<unknown>(
      "event",
      "venue,organizer",
      "category,tag,event",
      "post",
      "Event",
      "",
      ...(json
        ? [
            ["tag", "venue"],
            ["event", 1],
          ]
        : []),
    );
  else if (name === "timezone")
    specific = fc.constantFrom(
      "Europe/Berlin",
      "UTC+5:30",
      "utc",
      "UTC-14:00",
      "Mars/Base",
      "Etc/GMT+12",
      "UTC+15",
      "+02:00",
      "America/Argentina/ComodRivadavia",
    );
  else if (/website|source_url|image|url/.test(name))
    specific = fc.oneof(fc.constantFrom(...URLS), fc.constant(w.media), nastyString);
  else if (name === "email")
    specific = fc.constantFrom(
      "a@b.co",
      "x@localhost",
      "@@",
      "a@b.c",
      "émile@exämple.com",
      `${"a".repeat(95)}@b.co`,
    );
  else if (name === "roles")
    specific = fc.constantFrom<unknown>(
      "editor",
      "administrator",
      "subscriber,editor",
      ["author"],
      "root",
      "",
    );
  else if (name === "username")
    specific = fc.constantFrom("new.user", "Bad Name!", "a".repeat(61), "admin", "author", " lead");
  else if (name === "password")
    specific = fc.constantFrom(POST_PASSWORD, "wrong", "", "\\", "a".repeat(5000));
  else if (name === "recurrence")
    // RFC 5545 lines of a recurring series (contract §7.8): good, refused and unbounded ones.
    specific = fc.constantFrom<unknown>(
      ["RRULE:FREQ=WEEKLY;COUNT=3"],
      "RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20300101T000000Z",
      ["RRULE:FREQ=MONTHLY;BYDAY=-1FR", "EXDATE:20270101T100000Z"],
      ["RRULE:FREQ=HOURLY"],
      ["RRULE:FREQ=DAILY"],
      ["RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"],
      ["RDATE;VALUE=PERIOD:20270101T100000Z/PT1H"],
      ["X-FOO:bar"],
      [],
      "",
      ...(json ? [null, [1, 2], [{ a: 1 }]] : []),
    );
  else if (name === "scope")
    specific = fc.constantFrom<unknown>("this", "following", "all", "", "THIS");
  else if (/^(include|exclude|categories|tags|venue|organizer|uid|series)$/.test(name))
    specific = fc.oneof(
      fc.constantFrom<unknown>(
        ...ids,
        `${w.venues.publish},${w.venues.draft}`,
        ...w.categories.names,
        ...w.tags.names,
      ),
      nastyString,
      longList(ids, json),
    );
  else if (/^geo/.test(name))
    specific = fc.constantFrom<unknown>(
      "0",
      "90.0001",
      "-180",
      "1e-320",
      "NaN",
      "45.5",
      "20000",
      "20001",
      ...(json ? [91, -0.0] : []),
    );
  else if (name === "cost")
    specific = fc.constantFrom<unknown>(
      "15",
      "Free",
      "$10 – $20",
      ["1", "2"],
      "1.000.000,50",
      ...(json ? [{ a: 1 }, 12] : []),
    );
  else specific = any;
  return fc.oneof(
    { weight: 4, arbitrary: specific },
    { weight: 2, arbitrary: any },
    { weight: 1, arbitrary: wrongTypes },
  );
}

const accepts = (spec: Arg, value: unknown) => v.safeParse(spec.schema, value).success;
const present = (value: unknown) => value !== undefined && value !== null;

/** Values that fail almost every schema, tried when a generated value happened to be valid. */
const FALLBACK_INVALID: unknown[] = [
  { a: { b: "c" } },
  ["x", "y"],
  "",
  "0",
  [],
  "zz-not-valid-\u0000",
  "-1",
  { id: "x" },
];

function invalidFallback(spec: Arg, name: string, container: Container): unknown {
  return FALLBACK_INVALID.find((x) => {
    const d = decoded(container, name, x);
    return present(d) && !accepts(spec, d);
  });
}

/** Whether some value, once encoded in `container`, fails the argument's schema. */
export const poisonable = (spec: Arg, name: string, container: Container) =>
  invalidFallback(spec, name, container) !== undefined;

/** Arguments whose schema takes anything, with values that the handler refuses all the same. */
export const MANUAL_POISONS: Record<string, unknown[]> = {
  venue: ["foo", "-1", "1.5", { id: "x" }, { venue: "" }, [{ venue: ["a"] }]],
  organizer: ["foo", "0x10", { id: -3 }, [{ organizer: "" }], [{ email: "no-name@example.com" }]],
  categories: [{ a: { b: "c" } }, Array.from({ length: 101 }, (_, i) => `c${i}`)],
  tags: [[{ x: "y" }], Array.from({ length: 150 }, (_, i) => `t${i}`)],
};

const REQUIRED_DEFAULTS: Record<string, unknown> = {
  title: "Fuzz",
  start_date: "2027-01-01 10:00:00",
  end_date: "2027-01-01 11:00:00",
  venue: "Fuzz Hall",
  organizer: "Fuzz Org",
  name: "Fuzz",
  username: "fuzz.user",
  email: "fuzz@example.com",
  password: "fuzz-password",
  source_url: "https://cdn.example.com/fuzz.jpg",
  reassign: 1,
};

/** Hostile but valid values for some of the arguments (the required ones always). */
export function baseArb(
  spec: MethodSpec,
  w: World,
  container: Container,
  density: number,
): fc.Arbitrary<Record<string, unknown>> {
  const shapes = spec.shapes?.(w) ?? {};
  const entries = Object.entries(spec.args).filter(([n]) => !PATH_ARGS.has(n));
  if (entries.length === 0) return fc.constant({});
  const fields = entries.map(([name, a]) =>
    fc
      .tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        shapes[name] ?? pool(name, a, w, container),
      )
      .map(([roll, generated]): [string, unknown] => {
        const value = generated;
        if (!a.required && roll > density) return [name, undefined];
        const d = decoded(container, name, value);
        if (shapes[name] || (present(d) && accepts(a, d))) return [name, value];
        return [name, a.required ? REQUIRED_DEFAULTS[name] : undefined];
      }),
  );
  return fc
    .tuple(...fields)
    .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)));
}

/** The arguments of a method that some value spoils once encoded in `container` (path variables aside). */
export function poisonableArgs(spec: MethodSpec, container: Container): Array<[string, Arg]> {
  return Object.entries(spec.args).filter(
    ([n, a]) => !PATH_ARGS.has(n) && (poisonable(a, n, container) || MANUAL_POISONS[n]),
  );
}

/** `name` with a value that its schema (or its handler, for `MANUAL_POISONS`) refuses; null: none found. */
export function poisonFor(
  name: string,
  a: Arg,
  w: World,
  container: Container,
): fc.Arbitrary<[string, unknown] | null> {
  const manual = !poisonable(a, name, container);
  return (manual ? fc.constantFrom(...MANUAL_POISONS[name]) : pool(name, a, w, container)).map(
    (value): [string, unknown] | null => {
      if (manual) return [name, value];
      const d = decoded(container, name, value);
      const bad = present(d) && !accepts(a, d) ? value : invalidFallback(a, name, container);
      return bad === undefined ? null : [name, bad];
    },
  );
}

/**
 * Completes full-density bases (`baseArb` with density 1) so that together they carry every argument:
 * an argument whose generated values all failed its schema gets the first valid one of up to 100
 * more draws (from `seed`), in the base `k mod bases.length` for the k-th argument.
 */
export function completeBases(
  bases: Array<Record<string, unknown>>,
  spec: MethodSpec,
  w: World,
  container: Container,
  seed: number,
): Array<Record<string, unknown>> {
  if (bases.length === 0) return bases;
  const shapes = spec.shapes?.(w) ?? {};
  const out = bases.map((b) => ({ ...b }));
  const entries = Object.entries(spec.args).filter(([n]) => !PATH_ARGS.has(n));
  for (const [k, [name, a]] of entries.entries()) {
    if (out.some((b) => name in b)) continue;
    const value = fc
      .sample(shapes[name] ?? pool(name, a, w, container), { numRuns: 100, seed: seed + k })
      .find((x) => {
        const d = decoded(container, name, x);
        return shapes[name] !== undefined || (present(d) && accepts(a, d));
      });
    if (value !== undefined) out[k % out.length][name] = value;
  }
  return out;
}

/** One argument with a value that its schema refuses once encoded in `container` (null: none can be spoiled). */
export function poisonArg(
  spec: MethodSpec,
  w: World,
  container: Container,
): fc.Arbitrary<[string, unknown] | null> {
  const names = poisonableArgs(spec, container);
  if (names.length === 0) return fc.constant(null);
  return fc.constantFrom(...names).chain(([name, a]) => poisonFor(name, a, w, container));
}
