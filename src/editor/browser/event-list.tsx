/**
 * The events list: search (`search`), filters by status, category, venue and dates, paged by the
 * API's `X-WP-Total` headers, with each event's status. What the list holds is what the API
 * answers for the signed-in user's role (drafts of others only for editors, §6.1).
 */
import { useEffect, useState } from "preact/hooks";
import { api, ns } from "./api";
import { t } from "./config";
import {
  Field,
  Pager,
  type Problem,
  ProblemBox,
  problemOf,
  STATUSES,
  statusName,
  totalsOf,
} from "./fields";
import { useOptions } from "./options";
import { href } from "./route";

/** An event of a list answer, as far as the list shows it. */
export interface EventItem {
  id: number;
  title: string;
  status: string;
  start_date: string;
  all_day?: boolean | null;
  venue?: { id?: number; venue?: string } | [];
}

/** Events seen in lists, by id: a trashed event's form has no other way to its title. */
export const seenEvents = new Map<number, EventItem>();

interface Filters {
  search: string;
  status: string;
  categories: string;
  venue: string;
  start_date: string;
  end_date: string;
}

const NO_FILTERS: Filters = {
  search: "",
  status: "",
  categories: "",
  venue: "",
  start_date: "",
  end_date: "",
};

function FilterForm(props: { filters: Filters; onApply: (f: Filters) => void }) {
  const [draft, setDraft] = useState(props.filters);
  const categories = useOptions("categories");
  const venues = useOptions("venues");
  const set = (key: keyof Filters) => (e: Event) =>
    setDraft({ ...draft, [key]: (e.currentTarget as HTMLInputElement).value });
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(draft);
      }}
    >
      <Field id="f-search" label={t("search")}>
        <input id="f-search" type="search" value={draft.search} onInput={set("search")} />
      </Field>
      <Field id="f-status" label={t("filter_status")}>
        <select id="f-status" value={draft.status} onChange={set("status")}>
          <option value="">{t("any")}</option>
          {[...STATUSES, "trash"].map((s) => (
            <option key={s} value={s}>
              {statusName(s)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="f-category" label={t("filter_category")}>
        <select id="f-category" value={draft.categories} onChange={set("categories")}>
          <option value="">{t("any")}</option>
          {categories.options.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="f-venue" label={t("filter_venue")}>
        <select id="f-venue" value={draft.venue} onChange={set("venue")}>
          <option value="">{t("any")}</option>
          {venues.options.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="f-start" label={t("filter_start")}>
        <input id="f-start" type="date" value={draft.start_date} onInput={set("start_date")} />
      </Field>
      <Field id="f-end" label={t("filter_end")}>
        <input id="f-end" type="date" value={draft.end_date} onInput={set("end_date")} />
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          {t("apply")}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            props.onApply(NO_FILTERS);
          }}
        >
          {t("reset")}
        </button>
      </div>
    </form>
  );
}

const venueName = (e: EventItem) => (Array.isArray(e.venue) ? "" : (e.venue?.venue ?? ""));

function EventTable({ events }: { events: EventItem[] }) {
  if (events.length === 0) return <p class="empty">{t("no_events")}</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th scope="col">{t("col_title")}</th>
          <th scope="col">{t("col_start")}</th>
          <th scope="col">{t("col_venue")}</th>
          <th scope="col">{t("col_status")}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td data-label={t("col_title")}>
              <a href={href({ resource: "events", item: e.id })}>{e.title || `#${e.id}`}</a>
            </td>
            <td data-label={t("col_start")}>
              {e.all_day ? e.start_date.slice(0, 10) : e.start_date.slice(0, 16)}
            </td>
            <td data-label={t("col_venue")}>{venueName(e)}</td>
            <td data-label={t("col_status")}>
              <span class={`status status-${e.status}`}>{statusName(e.status)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The events screen. */
export function EventList() {
  const [filters, setFilters] = useState(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ events: EventItem[]; total: number; pages: number }>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    api<{ events: EventItem[] }>(ns("events"), { query: { ...filters, page, per_page: 20 } })
      .then(({ body, headers }) => {
        for (const e of body.events) seenEvents.set(e.id, e);
        setResult({ events: body.events, ...totalsOf(headers) });
      })
      .catch((err) => {
        setResult({ events: [], total: 0, pages: 0 });
        setProblem(problemOf(err));
      });
  }, [filters, page]);
  return (
    <section aria-labelledby="events-title">
      <div class="title-row">
        <h1 id="events-title">{t("events_title")}</h1>
        <a class="button primary" href={href({ resource: "events", item: "new" })}>
          {t("new_event")}
        </a>
      </div>
      <FilterForm
        filters={filters}
        onApply={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      <ProblemBox problem={problem} />
      {result ? (
        <>
          <EventTable events={result.events} />
          <Pager page={page} pages={result.pages} total={result.total} onPage={setPage} />
        </>
      ) : (
        <p aria-busy="true">{t("loading")}</p>
      )}
    </section>
  );
}
