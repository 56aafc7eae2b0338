/**
 * The event form, for a new event (`#/events/new`) and an existing one (`#/events/12`): every
 * field of the slice (title, description, dates, all day, time zone, cost, website, image URL,
 * categories, tags, venue, organizers, status, password, hidden, featured), the API's messages
 * beside the fields they name, and trash, restore (`status`) and delete for good (`force=true`).
 * Roles are the API's: what it refuses is shown, nothing is hidden in advance.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, api, ns } from "./api";
import { t } from "./config";
import { EventFields } from "./event-fields";
import { seenEvents } from "./event-list";
import {
  argumentsOf,
  changedArguments,
  type EventRecord,
  type EventState,
  newEvent,
  stateOf,
} from "./event-state";
import { Notice, type Problem, ProblemBox, problemOf, statusName, useAction } from "./fields";
import { go, href } from "./route";
import {
  deleteScoped,
  isOccurrence,
  type Scope,
  ScopeChoice,
  SeriesFacts,
  saveScoped,
} from "./series-scope";

type Loaded =
  | { state: "loading" }
  | { state: "ready"; record?: EventRecord; initial: EventState }
  | { state: "trashed"; title: string }
  | { state: "failed"; problem: Problem };

async function load(id: "new" | number): Promise<Loaded> {
  if (id === "new") return { state: "ready", initial: newEvent() };
  try {
    const { body } = await api<EventRecord>(ns(`events/${id}`), { query: { context: "edit" } });
    return { state: "ready", record: body, initial: stateOf(body) };
  } catch (err) {
    // A trashed event cannot be read (§4.7), only restored or deleted.
    if (err instanceof ApiFailure && err.code === "event-no-longer-available")
      return { state: "trashed", title: seenEvents.get(id)?.title ?? `#${id}` };
    return { state: "failed", problem: problemOf(err) };
  }
}

function DeleteForGood(props: { onDelete: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {t("delete_forever")}
      </button>
    );
  return (
    <span class="confirm">
      <span>{t("confirm_delete")}</span>
      <button type="button" class="danger" onClick={props.onDelete}>
        {t("yes_delete")}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t("cancel")}
      </button>
    </span>
  );
}

/** The event screen. */
export function EventForm({ id }: { id: "new" | number }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [form, setForm] = useState<EventState>(newEvent());
  const { problem, notice, setNotice, busy, run } = useAction();
  // This occurrence / this and following / all (contract §7.8), for an occurrence's save and delete.
  const [scope, setScope] = useState<Scope>("this");
  const reload = () =>
    load(id).then((l) => {
      setLoaded(l);
      if (l.state === "ready") setForm(l.initial);
    });
  useEffect(() => {
    void reload();
  }, [id]);

  const save = () =>
    run(async () => {
      if (id === "new") {
        const { body } = await api<EventRecord>(ns("events"), {
          method: "POST",
          body: argumentsOf(form),
        });
        go({ resource: "events", item: body.id });
        return;
      }
      if (loaded.state !== "ready") return;
      if (loaded.record && isOccurrence(loaded.record)) {
        // The occurrence stays on screen: after "all" it shows the series' change.
        await saveScoped(loaded.record, loaded.initial, form, scope);
        await reload();
        setNotice(t("saved"));
        return;
      }
      const changes = changedArguments(loaded.initial, form);
      const { body } = await api<EventRecord>(ns(`events/${id}`), {
        method: "POST",
        body: changes,
      });
      setLoaded({ state: "ready", record: body, initial: stateOf(body) });
      setForm(stateOf(body));
      setNotice(t("saved"));
    });
  const removeOccurrence = (record: EventRecord) =>
    run(async () => {
      await deleteScoped(record, scope);
      // The series to the trash (all): its screen offers restore; else the occurrences are gone.
      go({ resource: "events", item: scope === "all" ? record.series!.id : undefined });
    });
  const trash = () =>
    run(async () => {
      const { body } = await api<EventRecord>(ns(`events/${id}`), { method: "DELETE" });
      seenEvents.set(body.id, body);
      setLoaded({ state: "trashed", title: body.title });
      setNotice(t("trashed"));
    });
  const restore = () =>
    run(async () => {
      // Out of the trash as a draft, as WordPress restores posts.
      await api(ns(`events/${id}`), { method: "POST", body: { status: "draft" } });
      await reload();
      setNotice(t("restored"));
    });
  const destroy = () =>
    run(async () => {
      await api(ns(`events/${id}`), { method: "DELETE", query: { force: "true" } });
      go({ resource: "events" });
    });

  const back = (
    <p>
      <a href={href({ resource: "events" })}>{t("back_to_list")}</a>
    </p>
  );
  if (loaded.state === "loading") return <p aria-busy="true">{t("loading")}</p>;
  if (loaded.state === "failed")
    return (
      <section>
        {back}
        <ProblemBox problem={loaded.problem} />
      </section>
    );
  if (loaded.state === "trashed")
    return (
      <section aria-labelledby="event-title">
        {back}
        <h1 id="event-title">{loaded.title}</h1>
        <p>
          {t("field_status")}: <span class="status status-trash">{statusName("trash")}</span>
        </p>
        <Notice text={notice} />
        <ProblemBox problem={problem} />
        <div class="actions">
          <button type="button" class="primary" onClick={restore} disabled={busy}>
            {t("restore")}
          </button>
          <DeleteForGood onDelete={destroy} />
        </div>
      </section>
    );
  const occurrence = isOccurrence(loaded.record);
  return (
    <section aria-labelledby="event-title">
      {back}
      <h1 id="event-title">{id === "new" ? t("new_event") : t("edit_event")}</h1>
      <Notice text={notice} />
      <ProblemBox problem={problem} />
      <form
        class="record"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {loaded.record?.series && <SeriesFacts record={loaded.record} />}
        <EventFields
          form={form}
          record={loaded.record}
          errors={problem?.fields ?? {}}
          onChange={(patch) => setForm({ ...form, ...patch })}
        />
        {occurrence && <ScopeChoice scope={scope} onChange={setScope} />}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {id === "new" ? t("create") : t("save")}
          </button>
          {occurrence && (
            <button
              type="button"
              class="danger"
              onClick={() => removeOccurrence(loaded.record!)}
              disabled={busy}
            >
              {t("series_delete")}
            </button>
          )}
          {id !== "new" && !occurrence && (
            <>
              <button type="button" onClick={trash} disabled={busy}>
                {t("trash")}
              </button>
              <DeleteForGood onDelete={destroy} />
            </>
          )}
        </div>
      </form>
    </section>
  );
}
