/**
 * The columns a venue/organizer update changes (tec-reference §8.6; contract §4 rows 10, 12): exactly
 * the fields sent, the name, description and excerpt through the writer's HTML filters, and whether
 * anything changed at all — an update that changes nothing is not written.
 */

import { scaleBackStatus } from "../access/capabilities";
import type { WritePlan } from "../db/write-plan";
import { htmlFiltersFor } from "../text/kses";
import { unlinkStatements } from "./delete";
import { type LinkedFields, linkedColumns, type VenueFields } from "./kinds";
import type { LinkedRow } from "./load";
import { sentPostDate } from "./post-fields";
import type { LinkedKind, VenueRow } from "./record";
import { postDateColumns } from "./resolve";
import { clearedCoordinates, updatedStateProvince } from "./venue";

/** What an update was sent, validated. */
export interface UpdateInput {
  a: LinkedFields & Record<string, unknown>;
  sent: Set<string>;
  /** Whether the request names a field at all (a JSON null included). */
  named: (field: string) => boolean;
  /** The new name, trimmed, when one was sent. */
  name: string | undefined;
  /** The new image id, null to remove it, undefined to keep it. */
  imageId: number | null | undefined;
}

/**
 * The columns of an update that differ from the row as read, with the modification stamp when there
 * are any (`{}` when the update changes nothing). Trashing through `status` unlinks the post from its
 * events, as DELETE does, and records the status it had; leaving the trash forgets it (the
 * statements are added to the plan; the caller has checked `delete_post`).
 */
export function updatedColumns(
  kind: LinkedKind,
  existing: LinkedRow,
  input: UpdateInput,
  plan: WritePlan,
): Record<string, unknown> {
  const { a, sent, named } = input;
  const html = htmlFiltersFor(plan.user);
  const columns: Record<string, unknown> = linkedColumns(kind, a, sent, html);
  if (input.name !== undefined) columns.title = html.data(input.name);
  if (kind === "venue") {
    Object.assign(columns, updatedStateProvince(existing as VenueRow, a as VenueFields, sent));
    Object.assign(columns, clearedCoordinates(named, sent));
  }
  if (input.imageId !== undefined) columns.imageId = input.imageId;
  if (a.author !== undefined) columns.author = a.author;
  if (sentPostDate(a)) Object.assign(columns, postDateColumns(plan, a));
  if (a.status !== undefined) columns.status = scaleBackStatus(plan.user, a.status);

  const row = existing as unknown as Record<string, unknown>;
  for (const [column, value] of Object.entries(columns)) {
    if (row[column] === value) delete columns[column];
  }
  if (Object.keys(columns).length === 0) return {};

  const status = (columns.status as string | undefined) ?? existing.status;
  if (status === "trash" && existing.status !== "trash") {
    columns.trashMetaStatus = existing.status;
    plan.statements.push(...unlinkStatements(plan.db, kind, existing.id, plan.stamp));
  } else if (existing.status === "trash" && status !== "trash") {
    columns.trashMetaStatus = "";
  }
  columns.postModified = plan.stamp.local;
  columns.postModifiedGmt = plan.stamp.gmt;
  columns.changedGmt = plan.stamp.gmt;
  return columns;
}
