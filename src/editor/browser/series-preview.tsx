/**
 * The preview of a rule's next occurrences (contract §7.8 `GET /recurrence`): asked of the API a
 * moment after the rule or the dates change (debounced, the older answer dropped), listing the
 * first ten and the total, or the API's message for the lines (the 400 a save would get), beside
 * the rule and announced politely.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, api, ns } from "./api";
import { t } from "./config";
import { argumentsOf, type EventState, recurrenceOf } from "./event-state";

/** One previewed occurrence, as the API answers it. */
interface Occurrence {
  start_date: string;
  end_date: string;
  original_start: string;
}

type Preview =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "ready"; occurrences: Occurrence[]; total: number | null }
  | { state: "refused"; message: string };

/** How long the form must rest before the preview is asked for (ms). */
const DEBOUNCE_MS = 400;

/** How many occurrences the preview shows. */
const SHOWN = 10;

/** The query of `GET /recurrence` for the form: its dates and `recurrence[]=` lines. */
function previewQuery(form: EventState, lines: string[]): string {
  const args = argumentsOf(form);
  const q = new URLSearchParams();
  for (const key of ["start_date", "end_date", "timezone"])
    if (args[key]) q.set(key, String(args[key]));
  q.set("all_day", String(form.allDay));
  for (const line of lines) q.append("recurrence[]", line);
  q.set("per_page", String(SHOWN));
  return q.toString();
}

/** A local `Y-m-d H:i:s` as the preview shows it (the date alone for an all-day event). */
const shown = (o: Occurrence, allDay: boolean) =>
  allDay ? o.start_date.slice(0, 10) : o.start_date.slice(0, 16);

/** The preview. `error`: the API's message for `recurrence` from a failed save. */
export function SeriesPreview(props: { form: EventState; error?: string }) {
  const { form } = props;
  const lines = recurrenceOf(form);
  const query = lines.length ? previewQuery(form, lines) : "";
  const [preview, setPreview] = useState<Preview>({ state: "idle" });
  useEffect(() => {
    if (!query) {
      setPreview({ state: "idle" });
      return;
    }
    let current = true;
    setPreview({ state: "loading" });
    const timer = setTimeout(() => {
      api<{ occurrences: Occurrence[]; total: number | null }>(`${ns("recurrence")}?${query}`)
        .then(({ body }) => {
          if (current) setPreview({ state: "ready", ...body });
        })
        .catch((err) => {
          if (!current) return;
          const message =
            err instanceof ApiFailure
              ? (err.params.recurrence ?? Object.values(err.params)[0] ?? err.message)
              : t("error_network");
          setPreview({ state: "refused", message });
        });
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);
  const refused = preview.state === "refused" ? preview.message : props.error;
  return (
    <div class="series-preview">
      {refused && (
        <p class="field-error" id="series-rule-error">
          {refused}
        </p>
      )}
      <p id="series-preview-status" role="status" aria-live="polite">
        {preview.state === "loading"
          ? t("series_preview_loading")
          : preview.state === "ready"
            ? `${t("series_preview_total")} ${preview.total ?? t("series_preview_endless")}`
            : ""}
      </p>
      {preview.state === "ready" && (
        <>
          <h3 id="series-preview-title">{t("series_preview")}</h3>
          <ol class="series-occurrences" aria-labelledby="series-preview-title">
            {preview.occurrences.map((o) => (
              <li key={o.original_start}>
                <time dateTime={o.original_start}>{shown(o, form.allDay)}</time>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
