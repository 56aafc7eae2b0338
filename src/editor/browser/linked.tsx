/**
 * Venues and organizers (TEC's linked posts, §4.2, §4.3): a searchable, paged list and a form
 * with their name, description, contact and address fields and status; trash from the form.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ns } from "./api";
import { t } from "./config";
import {
  described,
  Field,
  Notice,
  Pager,
  type Problem,
  ProblemBox,
  problemOf,
  SearchForm,
  STATUSES,
  statusName,
  totalsOf,
  useAction,
} from "./fields";
import { go, href } from "./route";

/** Which linked post. */
export type LinkedKind = "venues" | "organizers";

/** The wire name of each kind's name field, and its other text fields in form order. */
const KINDS: Record<LinkedKind, { name: string; fields: string[] }> = {
  venues: {
    name: "venue",
    fields: [
      ...["address", "city", "zip", "province", "state", "country", "phone", "website"],
      // Typed in (no map: a map or a geocoder would need an outside service, issue 37 item 4).
      ...["geo_lat", "geo_lng"],
    ],
  },
  organizers: { name: "organizer", fields: ["phone", "email", "website"] },
};

type Item = Record<string, unknown> & { id: number; status: string };

/** A list of venues or organizers. */
export function LinkedList({ kind }: { kind: LinkedKind }) {
  const [applied, setApplied] = useState("");
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ items: Item[]; total: number; pages: number }>();
  const [problem, setProblem] = useState<Problem>();
  const nameField = KINDS[kind].name;
  useEffect(() => {
    setProblem(undefined);
    api<Record<string, Item[]>>(ns(kind), { query: { search: applied, page, per_page: 20 } })
      .then(({ body, headers }) => setResult({ items: body[kind] ?? [], ...totalsOf(headers) }))
      .catch((err) => {
        setResult({ items: [], total: 0, pages: 0 });
        setProblem(problemOf(err));
      });
  }, [applied, page, kind]);
  return (
    <section aria-labelledby="linked-title">
      <div class="title-row">
        <h1 id="linked-title">{t(`${kind}_title`)}</h1>
        <a class="button primary" href={href({ resource: kind, item: "new" })}>
          {t(`new_${nameField}`)}
        </a>
      </div>
      <SearchForm
        id="l-search"
        onSearch={(text) => {
          setApplied(text);
          setPage(1);
        }}
      />
      <ProblemBox problem={problem} />
      {!result && <p aria-busy="true">{t("loading")}</p>}
      {result && result.items.length === 0 && <p class="empty">{t("nothing_found")}</p>}
      {result && result.items.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{t("col_name")}</th>
              <th scope="col">{t("col_status")}</th>
            </tr>
          </thead>
          <tbody>
            {result.items.map((item) => (
              <tr key={item.id}>
                <td data-label={t("col_name")}>
                  <a href={href({ resource: kind, item: item.id })}>
                    {String(item[nameField] ?? "") || `#${item.id}`}
                  </a>
                </td>
                <td data-label={t("col_status")}>
                  <span class={`status status-${item.status}`}>{statusName(item.status)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && <Pager page={page} pages={result.pages} total={result.total} onPage={setPage} />}
    </section>
  );
}

/** The form of one venue or organizer (`new` creates one). */
export function LinkedForm({ kind, id }: { kind: LinkedKind; id: "new" | number }) {
  const { name, fields } = KINDS[kind];
  const all = [name, "description", ...fields, "status"];
  const [values, setValues] = useState<Record<string, string>>({ status: "publish" });
  const [initial, setInitial] = useState<Record<string, string>>({});
  const { problem, setProblem, notice, setNotice, busy, run } = useAction();
  const adopt = (body: Item) => {
    const v = Object.fromEntries(all.map((f) => [f, body[f] == null ? "" : String(body[f])]));
    setValues(v);
    setInitial(v);
  };
  useEffect(() => {
    if (id === "new") return;
    api<Item>(ns(`${kind}/${id}`), { query: { context: "edit" } })
      .then(({ body }) => adopt(body))
      .catch((err) => setProblem(problemOf(err)));
  }, [kind, id]);
  const save = () =>
    run(async () => {
      // A create sends what is filled in; an update what changed (an emptied field removes it).
      const body = Object.fromEntries(
        all
          .filter((f) => (id === "new" ? values[f] : values[f] !== (initial[f] ?? "")))
          .map((f) => [f, values[f] ?? ""]),
      );
      const path = id === "new" ? ns(kind) : ns(`${kind}/${id}`);
      const { body: saved } = await api<Item>(path, { method: "POST", body });
      if (id === "new") go({ resource: kind, item: saved.id });
      else {
        adopt(saved);
        setNotice(t("saved"));
      }
    });
  const trash = () =>
    run(async () => {
      await api(ns(`${kind}/${id}`), { method: "DELETE" });
      go({ resource: kind });
    });
  const errors = problem?.fields ?? {};
  const input = (field: string, label: string) => (
    <Field key={field} id={`l-${field}`} label={label} error={errors[field]}>
      {field === "description" ? (
        <textarea
          {...described(`l-${field}`, errors[field])}
          rows={4}
          value={values[field] ?? ""}
          onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
        />
      ) : (
        <input
          {...described(`l-${field}`, errors[field])}
          // One attribute for the three kinds of text field (Preact types each `type` apart).
          type={(field === "email" ? "email" : field === "website" ? "url" : "text") as "text"}
          inputMode={field.startsWith("geo_") ? "decimal" : undefined}
          value={values[field] ?? ""}
          onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
        />
      )}
    </Field>
  );
  return (
    <section aria-labelledby="linked-title">
      <p>
        <a href={href({ resource: kind })}>{t("back_to_list")}</a>
      </p>
      <h1 id="linked-title">{id === "new" ? t(`new_${name}`) : t(`edit_${name}`)}</h1>
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
        {input(name, t("field_name"))}
        {input("description", t("field_description"))}
        {fields.map((f) => input(f, t(`field_${f}`)))}
        <Field id="l-status" label={t("field_status")} error={errors.status}>
          <select
            {...described("l-status", errors.status)}
            value={values.status}
            onChange={(e) => setValues({ ...values, status: e.currentTarget.value })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusName(s)}
              </option>
            ))}
          </select>
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {id === "new" ? t("create") : t("save")}
          </button>
          {id !== "new" && (
            <button type="button" onClick={trash} disabled={busy}>
              {t("trash")}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
