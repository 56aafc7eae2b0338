/**
 * Form parts shared by the editor's screens: a labelled field with the API's message for it
 * (`data.params` of the error envelope) beside it, a check box, the error summary, the pager and
 * the status names. Everything an author typed is rendered as text (Preact escapes it); nothing
 * here uses `dangerouslySetInnerHTML`.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { ApiFailure } from "./api";
import { t } from "./config";

/** Field errors by wire name (`start_date`), from `ApiFailure.params`. */
export type FieldErrors = Record<string, string>;

/** The post statuses an editor may pick (what the role may set is the API's to say). */
export const STATUSES = ["publish", "future", "draft", "pending", "private"] as const;

/** A post status in the page's language (`status_draft`), the code itself when unknown. */
export const statusName = (status: string) => t(`status_${status}`);

/** An input, select or textarea with its label and, when the API refused it, its message. */
export function Field(props: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={props.error ? "field invalid" : "field"}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** `aria-describedby` and `aria-invalid` for an input of a `Field`. */
export const described = (id: string, error?: string, hint?: string) => ({
  id,
  "aria-invalid": error ? ("true" as const) : undefined,
  "aria-describedby":
    [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined,
});

/** A check box with its label after it. */
export function Check(props: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  return (
    <div class={props.error ? "check invalid" : "check"}>
      <input
        type="checkbox"
        {...described(props.id, props.error)}
        checked={props.checked}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <label for={props.id}>{props.label}</label>
      {props.error && (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** What a failed request says: the message, and the messages by field. */
export interface Problem {
  message: string;
  fields: FieldErrors;
}

/** A caught error as a `Problem` (the API's own words for API errors). */
export function problemOf(err: unknown): Problem {
  if (err instanceof ApiFailure) return { message: err.message, fields: err.params };
  return { message: t("error_network"), fields: {} };
}

/** The message of a failed request, announced to screen readers. */
export function ProblemBox({ problem }: { problem?: Problem }) {
  if (!problem) return null;
  return (
    <div class="error" role="alert">
      <p>{problem.message}</p>
    </div>
  );
}

/** A polite announcement (saved, trashed, …). */
export function Notice({ text }: { text?: string }) {
  return (
    <p class="notice" role="status">
      {text ?? ""}
    </p>
  );
}

/** Previous / next and where in the list we are, from `X-WP-Total` and `X-WP-TotalPages`. */
export function Pager(props: {
  page: number;
  pages: number;
  total: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav class="pager" aria-label={t("pages")}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        {t("previous")}
      </button>
      <span>
        {t("page")} {props.page} / {Math.max(props.pages, 1)} · {t("total")}: {props.total}
      </span>
      <button
        type="button"
        disabled={props.page >= props.pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        {t("next")}
      </button>
    </nav>
  );
}

/** A list answer's totals (`X-WP-Total`, `X-WP-TotalPages`; contract §4 row 8). */
export const totalsOf = (headers: Headers) => ({
  total: Number(headers.get("X-WP-Total") ?? 0),
  pages: Number(headers.get("X-WP-TotalPages") ?? 0),
});

/**
 * A form's action state: `busy` while an action runs, its `problem` (the API's answer) or `notice`.
 * `run(action)` clears both, runs the action and keeps what it threw as the problem.
 */
export function useAction() {
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      await action();
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { problem, setProblem, notice, setNotice, busy, run };
}

/**
 * A list's search box (the lists of venues, organizers, categories and tags): `onSearch` gets the
 * text when the form is sent, so that typing alone asks the API nothing.
 */
export function SearchForm(props: { id: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState("");
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(text);
      }}
    >
      <Field id={props.id} label={t("search")}>
        <input
          id={props.id}
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          {t("apply")}
        </button>
      </div>
    </form>
  );
}
