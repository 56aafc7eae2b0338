/**
 * A mirror of the calendar as a sync client keeps it (contract §7.3), driven through the worker:
 * a full walk of every list, then incremental runs with the cursors the answers gave — each list
 * with `sync_cursor`, then `/deleted` with its own — never a clock. `compare` checks a mirror
 * against a fresh full walk: after any change, an incremental run must leave the mirror equal to it.
 */
import { type ApiResponse, api, NS } from "../support/api";

export const KINDS = ["events", "venues", "organizers", "categories", "tags"] as const;
export type Kind = (typeof KINDS)[number];
const TYPE: Record<Kind, string> = {
  events: "event",
  venues: "venue",
  organizers: "organizer",
  categories: "category",
  tags: "tag",
};

/** What every request of a list carries: every event, every term. */
const BASE: Record<Kind, string> = {
  events: "start_date=1970-01-01&end_date=2999-12-31",
  venues: "",
  organizers: "",
  categories: "hide_empty=false",
  tags: "hide_empty=false",
};

export interface Mirror {
  headers: Record<string, string>;
  items: Record<Kind, Map<number, unknown>>;
  cursors: Record<Kind | "deleted", number>;
}

/** One answer's cursor (the `X-TEC-Sync-Cursor` header). */
export const cursorOf = (res: { headers: Headers }): number => {
  const value = res.headers.get("x-tec-sync-cursor");
  if (value === null || !/^\d+$/.test(value)) throw new Error(`no sync cursor: ${value}`);
  return Number(value);
};

/** Walks a list from its first page; the items with the cursor of the page each came from. */
async function walk(path: string, key: string, headers: Record<string, string>) {
  const items: Array<{ item: any; cursor: number }> = [];
  let cursor = Number.POSITIVE_INFINITY;
  let url: string | undefined = `${NS}/${path}`;
  while (url) {
    const res: ApiResponse = await api(url, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
    const at = cursorOf(res);
    cursor = Math.min(cursor, at);
    for (const item of res.body[key]) items.push({ item, cursor: at });
    url = res.body.next_rest_url?.replace(/^https?:\/\/[^/]+/, "");
  }
  return { items, cursor };
}

const query = (kind: Kind, extra: string) =>
  `${kind}?${[BASE[kind], "per_page=50", extra].filter(Boolean).join("&")}`;

/** A first run: every list walked; `/deleted` starts from the earliest list's cursor. */
export async function fullWalk(headers: Record<string, string> = {}): Promise<Mirror> {
  const items = {} as Mirror["items"];
  const cursors = {} as Mirror["cursors"];
  for (const kind of KINDS) {
    const found = await walk(query(kind, ""), kind, headers);
    items[kind] = new Map(found.items.map(({ item }) => [item.id, item]));
    cursors[kind] = found.cursor;
  }
  cursors.deleted = Math.min(...KINDS.map((k) => cursors[k]));
  return { headers, items, cursors };
}

/**
 * A later run: each list asked what changed after its cursor, then `/deleted` after its own. An
 * entry of `/deleted` removes the item unless this run's list showed it from a page read at or after
 * the entry's position (the list is newer than the removal). A list or log that answered nothing
 * keeps its cursor. Returns what the run saw.
 */
export async function incremental(m: Mirror) {
  const seen: Record<Kind, Map<number, number>> = {} as never;
  const upserted: Record<string, number[]> = {};
  for (const kind of KINDS) {
    const found = await walk(query(kind, `sync_cursor=${m.cursors[kind]}`), kind, m.headers);
    seen[kind] = new Map(found.items.map(({ item, cursor }) => [item.id, cursor]));
    for (const { item } of found.items) m.items[kind].set(item.id, item);
    if (found.items.length) m.cursors[kind] = found.cursor;
    upserted[kind] = found.items.map(({ item }) => item.id);
  }
  const log = await walk(
    `deleted?per_page=50&sync_cursor=${m.cursors.deleted}`,
    "deleted",
    m.headers,
  );
  for (const { item: entry } of log.items) {
    const kind = KINDS.find((k) => TYPE[k] === entry.type)!;
    const listedAt = seen[kind].get(entry.id);
    if (listedAt === undefined || listedAt < entry.sync_cursor) m.items[kind].delete(entry.id);
  }
  if (log.items.length) m.cursors.deleted = log.cursor;
  return { upserted, deleted: log.items.map(({ item }) => item) };
}

/**
 * What must match: every list, item by item. A term's `count` follows its events without being a
 * change of the term (contract §7.3), so counts are left out, in terms and in what embeds them.
 */
export function comparable(items: Record<Kind, Map<number, unknown>>) {
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([k]) => k !== "count")
              .map(([k, v]) => [k, strip(v)]),
          )
        : value;
  return Object.fromEntries(
    KINDS.map((k) => [
      k,
      [...items[k].entries()].sort(([a], [b]) => a - b).map(([, item]) => strip(item)),
    ]),
  );
}
