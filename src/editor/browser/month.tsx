/**
 * The month view of the events (issue 37): a grid of whole weeks, each event a link to its form
 * on every day it is on, previous / today / next month; on a phone the same month as a list of
 * the days that have events (editor.css swaps them). The events are what the events list shows
 * the signed-in user (no `status`: the API's default for their role, §6.1), every page of them.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ns } from "./api";
import { config, t } from "./config";
import { type Problem, ProblemBox, problemOf, statusName, totalsOf } from "./fields";
import { addDays, daysOn, shiftMonth, today, visibleDays } from "./month-dates";
import { href } from "./route";

/** An event of the month, as far as the grid shows it. */
interface MonthEvent {
  id: number;
  title: string;
  status: string;
  start_date: string;
  end_date: string;
  all_day?: boolean | null;
}

/** Events a page: the most the API gives (§5.2). */
const PER_PAGE = 50;

/**
 * Every event overlapping `[first, last]`, all pages (`X-WP-TotalPages`; pages after the first
 * fetched together). The API's `start_date`/`end_date` keep only events that start and end
 * inside the window (§6.2), which would lose a multi-day event crossing the month's edge, so the
 * window is asked as an overlap, `ends_after` the day before and `starts_before` the day after
 * (both compare with that day's 23:59:59), and what lies outside falls off in `daysOn`.
 * @throws ApiFailure as the API answers.
 */
async function monthEvents(first: string, last: string): Promise<MonthEvent[]> {
  const query = (page: number) => ({
    ends_after: addDays(first, -1),
    starts_before: addDays(last, 1),
    per_page: PER_PAGE,
    page,
  });
  const one = await api<{ events: MonthEvent[] }>(ns("events"), { query: query(1) });
  const { pages } = totalsOf(one.headers);
  const rest = await Promise.all(
    Array.from({ length: Math.max(pages - 1, 0) }, (_, i) =>
      api<{ events: MonthEvent[] }>(ns("events"), { query: query(i + 2) }),
    ),
  );
  return [one, ...rest].flatMap((answer) => answer.body.events);
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const format = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(config.lang, { ...options, timeZone: "UTC" });

/** One event in a day: its time (none when all-day), title and status when not published. */
function EventLink({ event }: { event: MonthEvent }) {
  return (
    <a href={href({ resource: "events", item: event.id })}>
      {!event.all_day && <span class="month-time">{event.start_date.slice(11, 16)} </span>}
      {event.title || `#${event.id}`}
      {event.status !== "publish" && (
        <span class={`status status-${event.status}`}> {statusName(event.status)}</span>
      )}
    </a>
  );
}

function EventsOf({ events }: { events: MonthEvent[] }) {
  if (events.length === 0) return null;
  return (
    <ul class="month-events">
      {events.map((e) => (
        <li key={e.id}>
          <EventLink event={e} />
        </li>
      ))}
    </ul>
  );
}

/** The month screen; `month` is `Y-m`, this month when absent. */
export function MonthView({ month: asked }: { month?: string }) {
  const now = today();
  const month = asked ?? now.slice(0, 7);
  const firstDay = Number(t("month_first_day")) || 0;
  const days = visibleDays(month, firstDay);
  const [result, setResult] = useState<{ month: string; byDay: Map<string, MonthEvent[]> }>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    const [first, last] = [days[0], days[days.length - 1]];
    // An answer for a month left meanwhile (quick "next, next") must not replace the newer one.
    let current = true;
    monthEvents(first, last)
      .then((events) => {
        if (!current) return;
        const byDay = new Map<string, MonthEvent[]>();
        for (const e of events)
          for (const day of daysOn(e.start_date, e.end_date, !!e.all_day, first, last))
            byDay.set(day, [...(byDay.get(day) ?? []), e]);
        setResult({ month, byDay });
      })
      .catch((err) => {
        if (!current) return;
        setResult({ month, byDay: new Map() });
        setProblem(problemOf(err));
      });
    return () => {
      current = false;
    };
  }, [month, firstDay]);
  const title = format({ month: "long", year: "numeric" }).format(utc(`${month}-01`));
  const weekdays = days.slice(0, 7).map((d) => ({
    short: format({ weekday: "short" }).format(utc(d)),
    long: format({ weekday: "long" }).format(utc(d)),
  }));
  const ready = result?.month === month ? result.byDay : undefined;
  const inMonth = days.filter((d) => d.startsWith(month) && ready?.get(d)?.length);
  return (
    <section aria-labelledby="month-title" aria-busy={ready ? undefined : "true"}>
      <div class="title-row">
        <h1 id="month-title">{title}</h1>
        <a class="button primary" href={href({ resource: "events", item: "new" })}>
          {t("new_event")}
        </a>
      </div>
      <nav class="month-nav" aria-label={t("month_nav")}>
        <a class="button" href={href({ resource: "calendar", month: shiftMonth(month, -1) })}>
          {t("month_previous")}
        </a>
        <a
          class="button"
          href={href({ resource: "calendar", month: now.slice(0, 7) })}
          aria-current={month === now.slice(0, 7) ? "date" : undefined}
        >
          {t("month_today")}
        </a>
        <a class="button" href={href({ resource: "calendar", month: shiftMonth(month, 1) })}>
          {t("month_next")}
        </a>
      </nav>
      <ProblemBox problem={problem} />
      {!ready && <p>{t("loading")}</p>}
      <table class="month-grid">
        <caption class="visually-hidden">{title}</caption>
        <thead>
          <tr>
            {weekdays.map((w) => (
              <th key={w.long} scope="col" abbr={w.long}>
                {w.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: days.length / 7 }, (_, week) => (
            <tr key={days[week * 7]}>
              {days.slice(week * 7, week * 7 + 7).map((day) => (
                <td
                  key={day}
                  data-day={day}
                  class={day.startsWith(month) ? undefined : "other-month"}
                  aria-current={day === now ? "date" : undefined}
                >
                  <time class="day-number" dateTime={day}>
                    {Number(day.slice(8))}
                  </time>
                  <EventsOf events={ready?.get(day) ?? []} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div class="month-list">
        {ready && inMonth.length === 0 && <p class="empty">{t("month_no_events")}</p>}
        <ol>
          {inMonth.map((day) => (
            <li key={day} data-day={day} aria-current={day === now ? "date" : undefined}>
              <h2>
                <time dateTime={day}>
                  {format({ weekday: "long", day: "numeric", month: "long" }).format(utc(day))}
                </time>
              </h2>
              <EventsOf events={ready?.get(day) ?? []} />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
