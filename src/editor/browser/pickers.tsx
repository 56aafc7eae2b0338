/**
 * Pickers for what an event links to: categories, tags and organizers (several, check boxes) and
 * the venue (one, a select), each with a field to create a new one inline (`POST /categories`,
 * `/tags`, `/organizers`, `/venues`); the API's refusal is shown beside it.
 */
import { useState } from "preact/hooks";
import { t } from "./config";
import { type Problem, problemOf } from "./fields";
import { createOption, type Option, type OptionKind, useOptions } from "./options";

/** The loaded options and those known from the record, each once. */
const withKnown = (options: Option[], known: Option[]) => [
  ...options,
  ...known.filter((k) => !options.some((o) => o.id === k.id)),
];

function CreateInline(props: { kind: OptionKind; label: string; onCreated: (o: Option) => void }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  const id = `new-${props.kind}`;
  const create = async () => {
    if (!name.trim()) return;
    setBusy(true);
    try {
      props.onCreated(await createOption(props.kind, name.trim()));
      setName("");
      setProblem(undefined);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="inline-create">
      <label for={id}>{props.label}</label>
      <div class="row">
        <input
          id={id}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter adds the new item instead of saving the whole event.
            if (e.key === "Enter") {
              e.preventDefault();
              void create();
            }
          }}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
        <button type="button" onClick={create} disabled={busy}>
          {t("add")}
        </button>
      </div>
      {problem && (
        <p class="field-error" id={`${id}-error`}>
          {Object.values(problem.fields)[0] ?? problem.message}
        </p>
      )}
    </div>
  );
}

/** Several of a kind, by check box, with inline creation. */
export function MultiPicker(props: {
  kind: "categories" | "tags" | "organizers";
  legend: string;
  newLabel: string;
  /** What the event links to already (shown even beyond the first 50 of the list). */
  known: Option[];
  selected: number[];
  onChange: (ids: number[]) => void;
  error?: string;
}) {
  const loaded = useOptions(props.kind);
  const options = withKnown(loaded.options, props.known);
  const add = loaded.add;
  const toggle = (id: number, on: boolean) =>
    props.onChange(on ? [...props.selected, id] : props.selected.filter((s) => s !== id));
  return (
    <fieldset class={props.error ? "picker invalid" : "picker"}>
      <legend>{props.legend}</legend>
      <ul class="choices">
        {options.map((o) => (
          <li key={o.id}>
            <input
              type="checkbox"
              id={`${props.kind}-${o.id}`}
              checked={props.selected.includes(o.id)}
              onChange={(e) => toggle(o.id, e.currentTarget.checked)}
            />
            <label for={`${props.kind}-${o.id}`}>{o.name}</label>
          </li>
        ))}
      </ul>
      {props.error && <p class="field-error">{props.error}</p>}
      <CreateInline
        kind={props.kind}
        label={props.newLabel}
        onCreated={(o) => {
          add(o);
          props.onChange([...props.selected, o.id]);
        }}
      />
    </fieldset>
  );
}

/** The venue: none or one, with inline creation. */
export function VenuePicker(props: {
  selected: string;
  /** The venue the event has (shown even beyond the first 50 of the list). */
  known?: { id?: number; venue?: string } | [];
  onChange: (id: string) => void;
  error?: string;
}) {
  const loaded = useOptions("venues");
  const current = props.known && !Array.isArray(props.known) && props.known.id ? props.known : null;
  const options = withKnown(
    loaded.options,
    current ? [{ id: current.id!, name: current.venue ?? "" }] : [],
  );
  const add = loaded.add;
  return (
    <fieldset class={props.error ? "picker invalid" : "picker"}>
      <legend>{t("field_venue")}</legend>
      <label for="event-venue" class="visually-hidden">
        {t("field_venue")}
      </label>
      <select
        id="event-venue"
        value={props.selected}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">{t("no_venue")}</option>
        {options.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.name}
          </option>
        ))}
      </select>
      {props.error && <p class="field-error">{props.error}</p>}
      <CreateInline
        kind="venues"
        label={t("new_venue")}
        onCreated={(o) => {
          add(o);
          props.onChange(String(o.id));
        }}
      />
    </fieldset>
  );
}
