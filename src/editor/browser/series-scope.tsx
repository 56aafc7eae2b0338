/**
 * An event of a recurring series in the form (contract §7.8, contract §7.11): the series' facts (part of
 * series N, its first event linked, the original start), the choice "this occurrence / this and
 * following / all" for a save and a delete of an occurrence, and the requests each choice makes:
 *
 * - this: `PATCH` the occurrence (an override) / `DELETE` it (an `EXDATE`, for good);
 * - following: the same with `scope: "following"` (a split) / `?scope=following` (the series ends
 *   before it);
 * - all: `PATCH` the series' id with the fields changed — a moved occurrence moves the whole series
 *   by as much (its first event's dates shifted by the same wall-clock amount: another time of day,
 *   or another day when the rule allows it) — / `DELETE` the series' id (to the trash).
 *
 * The series' first event is the series itself: what is written there applies to all its events.
 */
import { api, ns } from "./api";
import { t } from "./config";
import { changedArguments, type EventRecord, type EventState } from "./event-state";
import { href } from "./route";

/** Which events of the series a write changes. */
export type Scope = "this" | "following" | "all";

/** Whether the event is an occurrence of a series other than its first event. */
export const isOccurrence = (record?: EventRecord) =>
  record?.series !== undefined && record.series.id !== record.id;

/** The facts of the series an event belongs to, with a link to its first event. */
export function SeriesFacts({ record }: { record: EventRecord }) {
  const series = record.series;
  if (!series) return null;
  return (
    <aside class="series-facts" aria-labelledby="series-facts-title">
      <h2 id="series-facts-title">
        {t("series_part_of")} #{series.id}
      </h2>
      {isOccurrence(record) ? (
        <p>
          {t("series_original_start")}:{" "}
          <time dateTime={series.original_start}>{series.original_start}</time>
          {" · "}
          <a href={href({ resource: "events", item: series.id })}>{t("series_first_event")}</a>
        </p>
      ) : (
        <p>{t("series_is_first")}</p>
      )}
      {series.split_from !== null && (
        <p>
          <a href={href({ resource: "events", item: series.split_from })}>
            {t("series_split_from")} #{series.split_from}
          </a>
        </p>
      )}
    </aside>
  );
}

/** The choice of this / this and following / all, as a radio group. */
export function ScopeChoice(props: { scope: Scope; onChange: (scope: Scope) => void }) {
  return (
    <fieldset class="series-scope">
      <legend>{t("series_scope")}</legend>
      {(["this", "following", "all"] as const).map((scope) => (
        <span class="choice" key={scope}>
          <input
            type="radio"
            id={`series-scope-${scope}`}
            name="series-scope"
            value={scope}
            checked={props.scope === scope}
            onChange={() => props.onChange(scope)}
          />
          <label for={`series-scope-${scope}`}>{t(`series_scope_${scope}`)}</label>
        </span>
      ))}
    </fieldset>
  );
}

/** Milliseconds of a wall clock `Y-m-d H:i:s` (read as UTC: only differences count). */
const wallMs = (local: string) => Date.parse(`${local.replace(" ", "T")}Z`);

/** A wall clock moved by `ms`. */
const shifted = (local: string, ms: number) =>
  new Date(wallMs(local) + ms).toISOString().slice(0, 19).replace("T", " ");

/**
 * Saves an occurrence's changes for the chosen scope and returns the event to show after: the
 * occurrence (this, following) or the series' first event (all).
 * @throws ApiFailure as the API answers.
 */
export async function saveScoped(
  record: EventRecord,
  initial: EventState,
  form: EventState,
  scope: Scope,
): Promise<EventRecord> {
  const changes = changedArguments(initial, form);
  if (scope !== "all") {
    const body = scope === "following" ? { ...changes, scope } : changes;
    return (await api<EventRecord>(ns(`events/${record.id}`), { method: "POST", body })).body;
  }
  const seriesId = record.series!.id;
  const body: Record<string, unknown> = { ...changes };
  if ("start_date" in changes || "end_date" in changes) {
    // The series moves by as much as this occurrence moved (contract §7.8: moving a series' dates).
    const { body: first } = await api<EventRecord>(ns(`events/${seriesId}`), {
      query: { context: "edit" },
    });
    const before = changedArguments(form, initial);
    const moved = (key: "start_date" | "end_date") =>
      key in changes ? wallMs(String(changes[key])) - wallMs(String(before[key])) : 0;
    body.start_date = shifted(first.start_date, moved("start_date"));
    body.end_date = shifted(first.end_date, moved("end_date"));
  }
  return (await api<EventRecord>(ns(`events/${seriesId}`), { method: "POST", body })).body;
}

/**
 * Deletes an occurrence for the chosen scope: this (an `EXDATE`), following (the series ends
 * before it), all (the series to the trash).
 * @throws ApiFailure as the API answers.
 */
export async function deleteScoped(record: EventRecord, scope: Scope): Promise<void> {
  if (scope === "all") {
    await api(ns(`events/${record.series!.id}`), { method: "DELETE" });
    return;
  }
  await api(ns(`events/${record.id}`), {
    method: "DELETE",
    query: scope === "following" ? { scope } : {},
  });
}
