/**
 * Read-after-write steps for anonymous readers (test/e2e/read-after-write.*.test.ts): anonymous
 * GETs of the URLs a write affects, each twice (the second answer of a URL goes to the Cache API
 * as well as the isolate's memory), the write, a wait of `CONTENT_VERSION_TTL_MS` plus a margin,
 * the same GETs again for the test to check, and for every answer that changed a revalidation with
 * the old `ETag` in `If-None-Match`, which must not be a 304 but the new answer.
 */
import { expect } from "vitest";
import { type Answer, CONTENT_VERSION_TTL_MS, expectSound, get, show, sleep } from "./http";

/** Waited after each write beyond the TTL: the isolate's clock and the request's own time. */
export const MARGIN_MS = 500;

/** The last answer to each path. */
export type Answers = Record<string, Answer>;

/** Revalidations sent with an old ETag (a file's last test checks that there were some). */
export const revalidations = { count: 0 };

/** Anonymous GETs of `paths` (at once), `times` rounds; the last answer of each. */
export async function observe(paths: string[], times: number): Promise<Answers> {
  const out: Answers = {};
  for (let i = 0; i < times; i++)
    for (const answer of await Promise.all(paths.map((path) => get(path))))
      out[answer.path] = answer;
  return out;
}

/**
 * One write and what anonymous readers must see after it. `paths` are read before and after;
 * `check` gets the answers after the wait. No 5xx, and 4xx in the error envelope, among them.
 * @returns the write's answer.
 */
export async function step(options: {
  paths: string[];
  write: () => Promise<Answer>;
  writeStatus?: number;
  /** Called with the write's answer before the wait (to note a new id). */
  written?: (answer: Answer) => void;
  check: (after: Answers) => void | Promise<void>;
}): Promise<Answer> {
  const before = await observe(options.paths, 2);
  const written = await options.write();
  expect(written.status, show(written)).toBe(options.writeStatus ?? 200);
  options.written?.(written);
  await sleep(CONTENT_VERSION_TTL_MS + MARGIN_MS);
  const after = await observe(options.paths, 1);
  for (const answer of Object.values(after)) expectSound(answer);
  await options.check(after);
  // A client holding the old answer must get the new one, not a 304.
  const changed = options.paths.filter((path) => {
    const old = before[path];
    return old.status === 200 && old.headers.get("etag") && old.text !== after[path].text;
  });
  const revalidated = await Promise.all(
    changed.map((path) => get(path, null, { "if-none-match": before[path].headers.get("etag")! })),
  );
  revalidations.count += revalidated.length;
  for (const answer of revalidated) {
    const label = `If-None-Match ${before[answer.path].headers.get("etag")}: ${show(answer)}`;
    expect.soft(answer.status, label).not.toBe(304);
    expect.soft(answer.status, label).toBe(after[answer.path].status);
    expect.soft(answer.text, label).toBe(after[answer.path].text);
  }
  return written;
}

/** The ids of a list answer's `plural` items. */
export const ids = (answer: Answer, plural: string): number[] =>
  (answer.body?.[plural] ?? []).map((item: { id: number }) => item.id);

/** The iCalendar text with folded lines joined (RFC 5545 §3.1). */
export const unfolded = (answer: Answer) => answer.text.replace(/\r?\n[ \t]/g, "");
