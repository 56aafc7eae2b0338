/**
 * The event's columns an event save writes (tec-reference §8.2, §8.3; contract §4 row 10: an update
 * changes exactly the fields it names): the columns sent, those that differ from the row as read,
 * and what every changing save stamps (trash memory, post and modification dates, slug).
 */
import { sql } from "drizzle-orm";
import { scaleBackStatus } from "../access/capabilities";
import type { events } from "../db/schema";
import { freeSlug, uniqueSlug } from "../db/slugs";
import { postDates } from "../db/write";
import type { WritePlan } from "../db/write-plan";
import { writeColumns } from "../http/contract";
import { sentPostDate } from "../linked-posts/post-fields";
import { htmlFiltersFor } from "../text/kses";
import { parseTime } from "../time/parse";
import { resolveZone } from "../time/zone";
import { EVENT_FIELDS } from "./contract";
import { currencyFromCost } from "./cost";
import { dateInputs } from "./date-fields";
import type { EventSaveInput } from "./save-input";
import { eventDates } from "./write-dates";

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b));

/**
 * The event's own columns as sent (dates, texts through the writer's HTML filters, status, author,
 * post date, cost and currency, flags, password, uid), before comparison with the row as read.
 */
function sentColumns(input: EventSaveInput): Partial<typeof events.$inferInsert> {
  const { a, sent, existing, settings, now, user } = input;
  const creating = existing === null;
  const html = htmlFiltersFor(user);
  const values: Partial<typeof events.$inferInsert> = {};
  const dates = dateInputs(a, sent, creating);
  if (dates) Object.assign(values, eventDates(dates, existing, settings.siteTimezone, now));
  if (creating || a.status !== undefined) values.status = scaleBackStatus(user, a.status);
  if (a.author !== undefined || creating) values.author = a.author ?? user.id;
  const sentDate = sentPostDate(a);
  const postDate = sentDate
    ? parseTime(
        sentDate.value,
        resolveZone(
          sentDate.utc ? "UTC" : a.timezone || existing?.timezone || settings.siteTimezone,
        )!,
        now,
      )
    : null;
  if (postDate) {
    const d = postDates(postDate, settings.siteTimezone);
    Object.assign(values, { postDate: d.local, postDateGmt: d.gmt });
  }
  if (a.cost !== undefined) {
    const currency = currencyFromCost(a.cost);
    Object.assign(values, {
      cost: a.cost,
      currencySymbol: currency.symbol,
      currencyPosition: currency.position,
    });
  }
  // The plain columns of the contract: the title, description and excerpt through the writer's HTML
  // filters, flags, website, lineage, `uid`, and the explicit currency fields (imports keep their
  // source's), which override what the cost text implies.
  Object.assign(values, writeColumns(EVENT_FIELDS, a, sent, html));
  if (input.passwordDigest !== undefined) values.passwordDigest = input.passwordDigest;
  return values;
}

/**
 * The event's columns the save changes (those equal to the row as read dropped), and WordPress's
 * first free slug as read (decided again in the batch should a parallel write take it).
 */
export function changedColumns(
  input: EventSaveInput,
  links: { venueIds?: number[]; imageId?: number | null },
  id: number,
) {
  const { existing } = input;
  const values = sentColumns(input);
  if (links.venueIds !== undefined) values.venueId = links.venueIds[0] ?? null;
  if (links.imageId !== undefined) values.imageId = links.imageId;
  const guess = input.slug
    ? uniqueSlug(
        input.slug.base,
        new Set(input.slug.taken.filter((e) => e.id !== id).map((e) => e.slug)),
      )
    : undefined;
  if (existing) {
    const row = existing as unknown as Record<string, unknown>;
    for (const [column, value] of Object.entries(values)) {
      if (sameValue(row[column], value)) delete values[column as keyof typeof values];
    }
  }
  return { values, guess };
}

/**
 * What every changing save sets besides the columns sent: the trash's memory of the status, the
 * post and modification dates, the change time, and a new slug (`slug`: the first free one as read).
 */
export function stampColumns(
  plan: WritePlan,
  input: EventSaveInput,
  values: Partial<typeof events.$inferInsert>,
  slug: string | undefined,
): void {
  const { existing } = input;
  // Trash is one code path: what DELETE records, an update into the trash records too.
  const status = values.status ?? existing?.status;
  if (existing && status === "trash" && existing.status !== "trash")
    values.trashMetaStatus = existing.status;
  else if (existing?.status === "trash" && status !== "trash") values.trashMetaStatus = "";
  if (!existing && values.postDate === undefined)
    Object.assign(values, { postDate: plan.stamp.local, postDateGmt: plan.stamp.gmt });
  // WordPress (`wp_insert_post`): a new post's `modified` is its post date, which the client may set
  // in the past; an update's is now. The change time says when this write happened either way.
  Object.assign(
    values,
    existing
      ? { postModified: plan.stamp.local, postModifiedGmt: plan.stamp.gmt }
      : { postModified: values.postDate, postModifiedGmt: values.postDateGmt },
    { changedGmt: plan.stamp.gmt },
  );
  if (slug !== undefined) {
    values.slug = freeSlug("events", input.slug!.base, slug, {
      except: existing?.id,
      // Overrides share their series' slug (contract §7.8): only series and single events count.
      scope: sql`(s.series_id IS NULL OR s.series_id = s.id)`,
    }) as unknown as string;
  }
}
