/**
 * One webhook's screen (contract §7.5): what it is, "send a ping" (`POST /webhooks/{id}/ping`,
 * 202: queued, delivered after the answer), deactivate or activate (`status`), delete (asks
 * first), and its delivery log (`GET /webhooks/{id}/deliveries`, one row per attempt, newest
 * first, paged), refreshed on demand: deliveries happen after the answers that cause them.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ns } from "./api";
import { t } from "./config";
import { Notice, Pager, type Problem, ProblemBox, problemOf, totalsOf, useAction } from "./fields";
import { Confirm, utcTime } from "./ops-parts";
import { go, href } from "./route";
import { type Webhook, webhookStatus } from "./webhooks";

/** One delivery attempt as the API answers it. */
interface Delivery {
  id: number;
  message_id: string;
  type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_utc: string;
  next_attempt_utc: string | null;
}

function DeliveryLog({ id, version }: { id: number; version: number }) {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ items: Delivery[]; total: number; pages: number }>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    api<{ deliveries: Delivery[] }>(ns(`webhooks/${id}/deliveries`), {
      query: { page, per_page: 20 },
    })
      .then(({ body, headers }) => setResult({ items: body.deliveries, ...totalsOf(headers) }))
      .catch((err) => setProblem(problemOf(err)));
  }, [id, page, version]);
  return (
    <>
      <ProblemBox problem={problem} />
      {result && result.items.length === 0 && <p class="empty">{t("no_deliveries")}</p>}
      {result && result.items.length > 0 && (
        <table class="list deliveries">
          <thead>
            <tr>
              <th scope="col">{t("col_time")}</th>
              <th scope="col">{t("col_type")}</th>
              <th scope="col">{t("col_attempt")}</th>
              <th scope="col">{t("col_answer")}</th>
              <th scope="col">{t("col_duration")}</th>
            </tr>
          </thead>
          <tbody>
            {result.items.map((d) => (
              <tr key={d.id} class={d.error ? "failed" : undefined}>
                <td data-label={t("col_time")}>{utcTime(d.created_utc)}</td>
                <td data-label={t("col_type")}>{d.type}</td>
                <td data-label={t("col_attempt")}>{d.attempt}</td>
                <td data-label={t("col_answer")} class="answer">
                  {d.status_code ?? ""}
                  {d.error ? ` ${d.error}` : ""}
                  {d.next_attempt_utc
                    ? ` · ${t("next_attempt")} ${utcTime(d.next_attempt_utc)}`
                    : ""}
                </td>
                <td data-label={t("col_duration")}>{d.duration_ms}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && <Pager page={page} pages={result.pages} total={result.total} onPage={setPage} />}
    </>
  );
}

/** The screen of webhook `id`. */
export function WebhookDetail({ id }: { id: number }) {
  const [hook, setHook] = useState<Webhook>();
  const [version, setVersion] = useState(0);
  const { problem, setProblem, notice, setNotice, busy, run } = useAction();
  useEffect(() => {
    api<Webhook>(ns(`webhooks/${id}`))
      .then(({ body }) => setHook(body))
      .catch((err) => setProblem(problemOf(err)));
  }, [id]);
  const ping = () =>
    run(async () => {
      await api(ns(`webhooks/${id}/ping`), { method: "POST" });
      setNotice(t("pinged"));
    });
  const setStatus = (status: Webhook["status"]) =>
    run(async () => {
      const { body } = await api<Webhook>(ns(`webhooks/${id}`), {
        method: "POST",
        body: { status },
      });
      setHook(body);
      setNotice(t("saved"));
    });
  const remove = () =>
    run(async () => {
      await api(ns(`webhooks/${id}`), { method: "DELETE" });
      go({ resource: "webhooks" });
    });
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href={href({ resource: "webhooks" })}>{t("back_to_list")}</a>
      </p>
      <h1 id="webhook-title">{t("webhook_title")}</h1>
      <Notice text={notice} />
      <ProblemBox problem={problem} />
      {hook && (
        <>
          <dl class="facts">
            <dt>{t("field_url")}</dt>
            <dd class="long">{hook.url}</dd>
            <dt>{t("field_events")}</dt>
            <dd>{hook.events.join(", ")}</dd>
            <dt>{t("col_status")}</dt>
            <dd>
              <span class={`status status-${hook.status}`}>{webhookStatus(hook.status)}</span>
            </dd>
            {hook.description && (
              <>
                <dt>{t("field_description")}</dt>
                <dd>{hook.description}</dd>
              </>
            )}
            <dt>{t("col_created")}</dt>
            <dd>{utcTime(hook.created_utc)}</dd>
          </dl>
          <div class="actions">
            <button type="button" class="primary" onClick={ping} disabled={busy}>
              {t("ping")}
            </button>
            {hook.status === "active" ? (
              <button type="button" onClick={() => setStatus("disabled")} disabled={busy}>
                {t("deactivate")}
              </button>
            ) : (
              <button type="button" onClick={() => setStatus("active")} disabled={busy}>
                {t("activate")}
              </button>
            )}
            <Confirm
              label={t("delete")}
              question={t("confirm_delete_webhook")}
              yes={t("yes_delete")}
              onYes={() => void remove()}
              disabled={busy}
            />
          </div>
          <div class="title-row">
            <h2>{t("deliveries")}</h2>
            <button type="button" onClick={() => setVersion(version + 1)}>
              {t("refresh")}
            </button>
          </div>
          <DeliveryLog id={id} version={version} />
        </>
      )}
    </section>
  );
}
