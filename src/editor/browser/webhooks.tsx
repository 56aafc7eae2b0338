/**
 * Webhooks (contract §7.5; administrators — the API refuses everyone else, and the editor shows
 * its refusal): the list, and the form that registers one (target URL, the event types it is sent
 * for, `coalesce_seconds` of `calendar.changed`). The signing secret the API answers the create
 * with is shown that once, here, and kept nowhere. One webhook's screen is webhook-detail.tsx.
 */
import { useEffect, useState } from "preact/hooks";
import { CALENDAR_CHANGED, OBJECT_TYPES } from "../../webhooks/events";
import { api, ns } from "./api";
import { t } from "./config";
import {
  Check,
  described,
  Field,
  Pager,
  type Problem,
  ProblemBox,
  problemOf,
  totalsOf,
  useAction,
} from "./fields";
import { ShownOnce, utcTime } from "./ops-parts";
import { href } from "./route";

/** A webhook as the API answers it. */
export interface Webhook {
  id: number;
  url: string;
  events: string[];
  description: string;
  coalesce_seconds: number;
  status: "active" | "disabled";
  created_utc: string;
}

/**
 * The event types a webhook subscribes to (contract §7.5): the API's own list (bundled from
 * src/webhooks/events.ts, a module without imports), the wildcard first.
 */
const TYPES = ["*", CALENDAR_CHANGED, ...OBJECT_TYPES];

/** A webhook's status in the page's language. */
export const webhookStatus = (status: string) => t(`webhook_status_${status}`);

/** The webhooks screen: a just-created webhook's secret above the list. */
export function WebhookList() {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ items: Webhook[]; total: number; pages: number }>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    api<{ webhooks: Webhook[] }>(ns("webhooks"), { query: { page, per_page: 20 } })
      .then(({ body, headers }) => setResult({ items: body.webhooks, ...totalsOf(headers) }))
      .catch((err) => {
        setResult({ items: [], total: 0, pages: 0 });
        setProblem(problemOf(err));
      });
  }, [page]);
  return (
    <section aria-labelledby="webhooks-title">
      <div class="title-row">
        <h1 id="webhooks-title">{t("webhooks_title")}</h1>
        <a class="button primary" href={href({ resource: "webhooks", item: "new" })}>
          {t("new_webhook")}
        </a>
      </div>
      <ProblemBox problem={problem} />
      {!result && <p aria-busy="true">{t("loading")}</p>}
      {result && !problem && result.items.length === 0 && <p class="empty">{t("nothing_found")}</p>}
      {result && result.items.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{t("field_url")}</th>
              <th scope="col">{t("field_events")}</th>
              <th scope="col">{t("col_status")}</th>
              <th scope="col">{t("col_created")}</th>
            </tr>
          </thead>
          <tbody>
            {result.items.map((w) => (
              <tr key={w.id}>
                <td data-label={t("field_url")}>
                  <a href={href({ resource: "webhooks", item: w.id })} class="long">
                    {w.url}
                  </a>
                </td>
                <td data-label={t("field_events")}>{w.events.join(", ")}</td>
                <td data-label={t("col_status")}>
                  <span class={`status status-${w.status}`}>{webhookStatus(w.status)}</span>
                </td>
                <td data-label={t("col_created")}>{utcTime(w.created_utc)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && <Pager page={page} pages={result.pages} total={result.total} onPage={setPage} />}
    </section>
  );
}

/** Registers a webhook; then shows its secret once, with the way to its screen. */
export function WebhookNew() {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["*"]);
  const [coalesce, setCoalesce] = useState("30");
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<Webhook & { secret: string }>();
  const { problem, busy, run } = useAction();
  const errors = problem?.fields ?? {};
  const toggle = (type: string, on: boolean) =>
    setEvents(on ? [...events, type] : events.filter((e) => e !== type));
  const create = () =>
    run(async () => {
      const body = { url, events, description, coalesce_seconds: coalesce };
      const answer = await api<Webhook & { secret: string }>(ns("webhooks"), {
        method: "POST",
        body,
      });
      setCreated(answer.body);
    });
  if (created)
    return (
      <section aria-labelledby="webhook-title">
        <h1 id="webhook-title">{t("webhook_created")}</h1>
        <p class="long">{created.url}</p>
        <ShownOnce
          id="webhook-secret"
          label={t("webhook_secret")}
          value={created.secret}
          note={t("shown_once")}
        />
        <p>
          <a class="button primary" href={href({ resource: "webhooks", item: created.id })}>
            {t("webhook_open")}
          </a>
        </p>
      </section>
    );
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href={href({ resource: "webhooks" })}>{t("back_to_list")}</a>
      </p>
      <h1 id="webhook-title">{t("new_webhook")}</h1>
      <ProblemBox problem={problem} />
      <form
        class="record"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field id="webhook-url" label={t("field_url")} error={errors.url} hint={t("url_hint")}>
          <input
            {...described("webhook-url", errors.url, t("url_hint"))}
            type="url"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </Field>
        <fieldset class={errors.events ? "picker webhook-events invalid" : "picker webhook-events"}>
          <legend>{t("field_events")}</legend>
          {errors.events && (
            <p class="field-error" id="webhook-events-error">
              {errors.events}
            </p>
          )}
          <ul class="choices">
            {TYPES.map((type) => (
              <li key={type}>
                <Check
                  id={`webhook-event-${type.replace(/\W/g, "-")}`}
                  label={type === "*" ? t("events_all") : type}
                  checked={events.includes(type)}
                  onChange={(on) => toggle(type, on)}
                />
              </li>
            ))}
          </ul>
        </fieldset>
        <Field
          id="webhook-coalesce"
          label={t("field_coalesce")}
          error={errors.coalesce_seconds}
          hint={t("coalesce_hint")}
        >
          <input
            {...described("webhook-coalesce", errors.coalesce_seconds, t("coalesce_hint"))}
            type="number"
            min={1}
            max={3600}
            value={coalesce}
            onInput={(e) => setCoalesce(e.currentTarget.value)}
          />
        </Field>
        <Field id="webhook-description" label={t("field_description")} error={errors.description}>
          <input
            {...described("webhook-description", errors.description)}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t("create")}
          </button>
        </div>
      </form>
    </section>
  );
}
