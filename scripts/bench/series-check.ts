/**
 * `npx tsx scripts/bench/series-check.ts [series…]`
 *
 * Checks that the `series` bench dataset (`.wrangler/bench/series`, built by `npm run bench -- --sizes
 * series`) holds what the API would have made of its series: on a copy of the directory (the
 * dataset itself is left as it is), the worker's code (src/index.ts, in Node over the copy's local
 * D1, as ./js-cost.ts runs it) creates each checked series again through `POST /events`, with the
 * seeded series' fields and lines, and compares:
 *
 * - the two series' `event_occurrences` rows (but ids and post dates) and their series columns
 *   (`recurrence`, `horizon_gmt`, `occurrence_start`), and that the new one's occurrence ids follow
 *   its own, as the seeded ones do;
 * - `GET /events?series=<id>` (every occurrence, anonymous) and `GET /events/{occurrence id}` of
 *   each, but for what differs between two posts (ids, slugs, URLs, modification dates). The
 *   writes' renderings are stored before the next request (a write's `waitUntil`), so the reads
 *   meet both stored and missing renderings. Takes a few minutes (each write renders ~1,000 of the
 *   dataset's stale events after its answer, as the worker does).
 *
 * Without arguments it checks a few series of every kind (all-day, multi-day, past, far ahead,
 * draft, across a DST change). Exit code 1 on a difference.
 */
import "../lib/text-modules";
import { timingSafeEqual } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { readWranglerVars } from "../lib/config";
import { PATHS, ROOT } from "../lib/paths";

const source = path.join(ROOT, ".wrangler", "bench", "series");
if (!existsSync(path.join(source, "v3"))) {
  console.error("No .wrangler/bench/series: run npm run bench -- --sizes series --seed-only first");
  process.exit(2);
}
const copy = mkdtempSync(path.join(os.tmpdir(), "bench-series-check-"));
cpSync(path.join(source, "v3"), path.join(copy, "v3"), { recursive: true });
const proxy = await getPlatformProxy<{ DB: D1Database; STRINGS: KVNamespace }>({
  configPath: PATHS.wranglerToml,
  persist: { path: path.join(copy, "v3") },
  remoteBindings: false,
});
const db = proxy.env.DB;
const PASSWORD = "series check password";
// Workers' `crypto.subtle.timingSafeEqual` (src/http/crypto.ts), which Node's WebCrypto lacks.
Object.assign(crypto.subtle, {
  timingSafeEqual: (a: ArrayBufferView, b: ArrayBufferView) =>
    timingSafeEqual(
      new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
      new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    ),
});
type Row = Record<string, unknown>;
const all = async (sql: string, ...params: unknown[]) =>
  (
    await db
      .prepare(sql)
      .bind(...params)
      .all<Row>()
  ).results;

let failures = 0;
try {
  const worker = (
    (await import(path.join(ROOT, "src", "index.ts"))) as {
      default: { fetch(r: Request, env: unknown, ctx: unknown): Promise<Response> };
    }
  ).default;
  const vars = readWranglerVars();
  const env = { ...vars, DB: db, STRINGS: proxy.env.STRINGS, ADMIN_APP_PASSWORD: PASSWORD };
  // What a write leaves to run after its answer (storing renderings), awaited before the next call.
  const after: Promise<unknown>[] = [];
  const ctx = {
    waitUntil: (p: Promise<unknown>) => after.push(p),
    passThroughOnException() {},
    props: {},
  };
  const ns = `http://127.0.0.1/${vars.REST_PREFIX ?? "wp-json"}/${vars.VENDOR ?? "tribe"}/events/v1`;
  const call = async (route: string, init: RequestInit = {}) => {
    const res = await worker.fetch(new Request(`${ns}${route}`, init), env, ctx);
    const text = await res.text();
    await Promise.all(after.splice(0));
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const admin = { authorization: `Basic ${btoa(`admin:${PASSWORD}`)}` };

  const picks = process.argv.slice(2).map(Number);
  if (!picks.length) {
    const first = async (where: string) =>
      (await all(`SELECT id FROM events WHERE series_id = id AND ${where} ORDER BY id LIMIT 1`))[0]
        ?.id as number | undefined;
    const kinds = [
      "status = 'publish' AND all_day = 0 AND start_date >= date('now')",
      "status = 'publish' AND all_day = 1",
      "status = 'publish' AND substr(end_date, 1, 10) > substr(start_date, 1, 10) AND all_day = 0",
      "status = 'publish' AND start_date < date('now', '-200 days')",
      "status = 'publish' AND start_date > date('now', '+300 days')",
      "status = 'draft'",
      "status = 'publish' AND timezone = 'America/New_York' AND start_date LIKE '%-10-2%'",
      "status = 'publish' AND venue_id IS NULL",
    ];
    for (const k of kinds) {
      const id = await first(k);
      if (id !== undefined && !picks.includes(id)) picks.push(id);
    }
  }

  const WINDOW = "start_date=2000-01-01&end_date=2100-12-31&per_page=50";
  /** An event's JSON without what differs between two posts of the same fields. */
  const strip = (e: Row, ids: Map<number, string>): unknown =>
    JSON.parse(
      JSON.stringify(e, (key, value) =>
        ["slug", "url", "rest_url", "global_id", "global_id_lineage", "@id"].includes(key) ||
        // Without a website of its own, an event's is its page (its slug's).
        (key === "website" && typeof value === "string" && value.includes("/event/")) ||
        /^(date|date_utc|modified|modified_utc)$/.test(key)
          ? undefined
          : typeof value === "number" && ids.has(value)
            ? ids.get(value)
            : typeof value === "string"
              ? value.replace(/\d+/g, (n) => ids.get(Number(n)) ?? n)
              : value,
      ),
    );
  const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

  for (const id of picks) {
    const [s] = await all("SELECT * FROM events WHERE id = ?", id);
    if (!s || s.series_id !== id) {
      console.log(`✗ ${id} is not a series`);
      failures++;
      continue;
    }
    const links = async (sql: string) => (await all(sql, id)).map((r) => r.v);
    const payload = {
      title: s.title,
      description: s.content,
      excerpt: s.excerpt,
      status: s.status,
      date_utc: s.post_date_gmt,
      start_date: s.start_date,
      end_date: s.end_date,
      all_day: Boolean(s.all_day),
      timezone: s.timezone,
      cost: JSON.parse(String(s.cost)),
      currency_symbol: s.currency_symbol,
      currency_position: s.currency_position,
      currency_code: s.currency_code,
      ...(s.website === null ? {} : { website: s.website }),
      show_map: Boolean(s.show_map),
      show_map_link: Boolean(s.show_map_link),
      hide_from_listings: Boolean(s.hide_from_listings),
      sticky: Boolean(s.sticky),
      featured: Boolean(s.featured),
      ticketed: Boolean(s.ticketed),
      venue: s.venue_id ?? [],
      organizer: await links(
        "SELECT organizer_id AS v FROM event_organizers WHERE event_id = ? ORDER BY position",
      ),
      categories: await links(
        "SELECT t.id AS v FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ? AND t.taxonomy = 'tribe_events_cat' ORDER BY t.id",
      ),
      tags: await links(
        "SELECT t.id AS v FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = ? AND t.taxonomy = 'post_tag' ORDER BY t.id",
      ),
      recurrence: JSON.parse(String(s.recurrence)),
    };
    const created = await call("/events", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    if (created.status !== 201) {
      console.log(`✗ ${id}: POST answered ${created.status} ${JSON.stringify(created.body)}`);
      failures++;
      continue;
    }
    const n = created.body.id as number;
    const problems: string[] = [];
    const [t] = await all("SELECT * FROM events WHERE id = ?", n);
    for (const c of [
      "recurrence",
      "horizon_gmt",
      "occurrence_start",
      "start_date_utc",
      "end_date_utc",
      "timezone_abbr",
    ])
      if (s[c] !== t[c]) problems.push(`events.${c}: seeded ${s[c]}, API ${t[c]}`);
    const occ = (series: number) =>
      all(
        "SELECT id, occurrence_start, start_date, end_date, start_date_utc, end_date_utc, timezone_abbr, status, hide_from_listings FROM event_occurrences WHERE series_id = ? ORDER BY occurrence_start",
        series,
      );
    const [mine, theirs] = [await occ(id), await occ(n)];
    const rest = (o: Row) => ({ ...o, id: undefined });
    if (mine.length !== theirs.length)
      problems.push(`occurrences: seeded ${mine.length}, API ${theirs.length}`);
    mine.forEach((o, k) => {
      if (differ(rest(o), rest(theirs[k] ?? {})))
        problems.push(
          `occurrence ${k}: seeded ${JSON.stringify(o)}, API ${JSON.stringify(theirs[k])}`,
        );
    });
    const consecutive = (series: number, list: Row[]) =>
      list.every((o, k) => o.id === series + 1 + k);
    if (!consecutive(id, mine) || !consecutive(n, theirs))
      problems.push("occurrence ids do not follow their series' id");
    // The same placeholders for both: the series, then its occurrences in order.
    const names = (series: number, list: Row[]) =>
      new Map<number, string>([
        [series, "S"],
        ...list.map((o, k): [number, string] => [o.id as number, `O${k}`]),
      ]);
    const [ma, mb] = [names(id, mine), names(n, theirs)];
    if (s.status === "publish" && !s.hide_from_listings) {
      const list = async (series: number) => {
        const pages = [];
        for (let page = 1; page <= Math.ceil((mine.length + 1) / 50); page++)
          pages.push(await call(`/events?series=${series}&${WINDOW}&page=${page}`));
        const ok = pages.every((p) => p.status === 200);
        return {
          status: ok ? 200 : pages.map((p) => p.status).join(","),
          body: {
            pages: pages.map((p) => ({ ...p.body, events: undefined })),
            events: ok ? pages.flatMap((p) => p.body.events) : [],
          },
        };
      };
      const [la, lb] = [await list(id), await list(n)];
      if (la.status !== 200 || lb.status !== 200)
        problems.push(`list answered ${la.status} / ${lb.status}`);
      else if (la.body.events.length !== mine.length + 1)
        problems.push(`list has ${la.body.events.length} events, not ${mine.length + 1}`);
      else if (differ(strip(la.body, ma), strip(lb.body, mb)))
        problems.push(
          `GET /events?series= differs: ${firstDifference(strip(la.body, ma), strip(lb.body, mb))}`,
        );
      const k = Math.floor(mine.length / 2);
      const [ga, gb] = [
        await call(`/events/${mine[k].id}`),
        await call(`/events/${theirs[k]?.id}`),
      ];
      if (ga.status !== 200 || differ(strip(ga.body, ma), strip(gb.body, mb)))
        problems.push(
          `GET /events/{occurrence ${k}} differs (${ga.status} / ${gb.status}): ${firstDifference(strip(ga.body, ma), strip(gb.body, mb))}`,
        );
    }
    const what = `${id} (${s.status}, ${s.all_day ? "all-day" : "timed"}, ${s.start_date} → ${s.end_date} ${s.timezone}, ${mine.length + 1} occurrences)`;
    if (problems.length) {
      failures++;
      console.log(`✗ ${what} vs ${n}:\n  ${problems.slice(0, 8).join("\n  ")}`);
    } else console.log(`✓ ${what}: the same as ${n}, created through the API`);
  }
} finally {
  await proxy.dispose();
  rmSync(copy, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);

/** Where two JSON values first differ, as `path: a ≠ b`. */
function firstDifference(a: unknown, b: unknown, at = ""): string {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return `${at || "/"}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [(a as Row)[key], (b as Row)[key]];
    if (JSON.stringify(x) !== JSON.stringify(y)) return firstDifference(x, y, `${at}/${key}`);
  }
  return "(none)";
}
