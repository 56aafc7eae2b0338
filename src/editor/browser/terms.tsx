/**
 * Event categories and tags (§1.2 rows 11–14, §7.2, §8.8; one screen for both as the API has one
 * implementation): a searchable, paged list of every term (`hide_empty=false`), and a form with
 * name, slug, description and, for categories, the parent; delete (terms have no trash) asks
 * first. What the role may do is the API's to say (403 shown as it answers).
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
  totalsOf,
  useAction,
} from "./fields";
import { Confirm } from "./ops-parts";
import { useOptions } from "./options";
import { go, href } from "./route";

/** Which taxonomy. */
export type TermKind = "categories" | "tags";

/** A term as the API answers it, as far as these screens use it. */
interface Term {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent?: number;
  count?: number;
}

/** The singular of each kind, for its string keys (`new_category`, `edit_tag`). */
const ONE: Record<TermKind, string> = { categories: "category", tags: "tag" };

/** The list of a taxonomy's terms. */
export function TermList({ kind }: { kind: TermKind }) {
  const [applied, setApplied] = useState("");
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ items: Term[]; total: number; pages: number }>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    setProblem(undefined);
    const query = { search: applied, page, per_page: 20, hide_empty: "false", orderby: "name" };
    api<Record<string, Term[]>>(ns(kind), { query })
      .then(({ body, headers }) => setResult({ items: body[kind] ?? [], ...totalsOf(headers) }))
      .catch((err) => {
        setResult({ items: [], total: 0, pages: 0 });
        setProblem(problemOf(err));
      });
  }, [applied, page, kind]);
  return (
    <section aria-labelledby="terms-title">
      <div class="title-row">
        <h1 id="terms-title">{t(`${kind}_title`)}</h1>
        <a class="button primary" href={href({ resource: kind, item: "new" })}>
          {t(`new_${ONE[kind]}`)}
        </a>
      </div>
      <SearchForm
        id="t-search"
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
              <th scope="col">{t("col_slug")}</th>
              <th scope="col">{t("col_count")}</th>
            </tr>
          </thead>
          <tbody>
            {result.items.map((term) => (
              <tr key={term.id}>
                <td data-label={t("col_name")}>
                  <a href={href({ resource: kind, item: term.id })}>{term.name || `#${term.id}`}</a>
                </td>
                <td data-label={t("col_slug")}>{term.slug}</td>
                <td data-label={t("col_count")}>{term.count ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && <Pager page={page} pages={result.pages} total={result.total} onPage={setPage} />}
    </section>
  );
}

const FIELDS = ["name", "slug", "description", "parent"] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const EMPTY: Values = { name: "", slug: "", description: "", parent: "0" };

const valuesOf = (term: Term): Values => ({
  name: term.name ?? "",
  slug: term.slug ?? "",
  description: term.description ?? "",
  parent: String(term.parent ?? 0),
});

/** The form of one term (`new` creates one). */
export function TermForm({ kind, id }: { kind: TermKind; id: "new" | number }) {
  const fields = FIELDS.filter((f) => f !== "parent" || kind === "categories");
  const [values, setValues] = useState<Values>(EMPTY);
  const [initial, setInitial] = useState<Values>(EMPTY);
  const parents = useOptions("categories");
  const { problem, setProblem, notice, setNotice, busy, run } = useAction();
  const adopt = (term: Term) => {
    setValues(valuesOf(term));
    setInitial(valuesOf(term));
  };
  useEffect(() => {
    if (id === "new") return;
    api<Term>(ns(`${kind}/${id}`))
      .then(({ body }) => adopt(body))
      .catch((err) => setProblem(problemOf(err)));
  }, [kind, id]);
  const save = () =>
    run(async () => {
      // A create sends what is filled in; an update what changed.
      const changed = fields.filter((f) =>
        id === "new" ? values[f] !== EMPTY[f] : values[f] !== initial[f],
      );
      const body = Object.fromEntries(
        changed.map((f) => [f, f === "parent" ? Number(values[f]) : values[f]]),
      );
      const path = id === "new" ? ns(kind) : ns(`${kind}/${id}`);
      const { body: saved } = await api<Term>(path, { method: "POST", body });
      if (id === "new") go({ resource: kind, item: saved.id });
      else {
        adopt(saved);
        setNotice(t("saved"));
      }
    });
  const remove = () =>
    run(async () => {
      await api(ns(`${kind}/${id}`), { method: "DELETE" });
      go({ resource: kind });
    });
  const errors = problem?.fields ?? {};
  const set = (f: keyof Values) => (e: Event) =>
    setValues({ ...values, [f]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="term-title">
      <p>
        <a href={href({ resource: kind })}>{t("back_to_list")}</a>
      </p>
      <h1 id="term-title">{t(`${id === "new" ? "new" : "edit"}_${ONE[kind]}`)}</h1>
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
        <Field id="term-name" label={t("field_name")} error={errors.name}>
          <input
            {...described("term-name", errors.name)}
            value={values.name}
            onInput={set("name")}
          />
        </Field>
        <Field id="term-slug" label={t("field_slug")} error={errors.slug} hint={t("slug_hint")}>
          <input
            {...described("term-slug", errors.slug, t("slug_hint"))}
            value={values.slug}
            onInput={set("slug")}
          />
        </Field>
        <Field id="term-description" label={t("field_description")} error={errors.description}>
          <textarea
            {...described("term-description", errors.description)}
            rows={4}
            value={values.description}
            onInput={set("description")}
          />
        </Field>
        {kind === "categories" && (
          <Field id="term-parent" label={t("field_parent")} error={errors.parent}>
            <select
              {...described("term-parent", errors.parent)}
              value={values.parent}
              onChange={set("parent")}
            >
              <option value="0">{t("no_parent")}</option>
              {parents.options
                .filter((o) => o.id !== id)
                .map((o) => (
                  <option key={o.id} value={String(o.id)}>
                    {o.name}
                  </option>
                ))}
            </select>
          </Field>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {id === "new" ? t("create") : t("save")}
          </button>
          {id !== "new" && (
            <Confirm
              label={t("delete")}
              question={t("confirm_delete_term")}
              yes={t("yes_delete")}
              onYes={() => void remove()}
              disabled={busy}
            />
          )}
        </div>
      </form>
    </section>
  );
}
