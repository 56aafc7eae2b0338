/**
 * The "Repeats" section of the event form (contract §7.8, contract §7.11): a fieldset with the rule builder
 * (src/editor/browser/series-rule.ts) — frequency, interval, weekdays, monthly by day or by "second
 * Tuesday", the end, the exceptions — or, for lines the builder cannot say, the lines as text; and
 * the preview of the next occurrences from the API (src/editor/browser/series-preview.tsx), whose
 * 400 message is shown beside the rule. Every control is labelled and works by keyboard.
 */
import { useState } from "preact/hooks";
import { t } from "./config";
import type { EventState } from "./event-state";
import { described, Field } from "./fields";
import { SeriesPreview } from "./series-preview";
import {
  type Freq,
  linesOf,
  ORDINALS,
  type RuleDates,
  type RuleState,
  ruleOf,
  WEEKDAYS,
  weekdayOf,
} from "./series-rule";

/** The builder for lines typed as text (still `advanced` when it cannot say them). */
const builderOf = (text: string, dates: RuleDates) =>
  ruleOf(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean),
    dates,
  );

const FREQS: Freq[] = ["none", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"];

const ordinalName = (n: number) => t(n === -1 ? "series_ordinal_last" : `series_ordinal_${n}`);

/** A radio button with its label. */
function Radio(props: {
  name: string;
  value: string;
  checked: boolean;
  label: string;
  onChange: () => void;
}) {
  const id = `${props.name}-${props.value}`;
  return (
    <span class="choice">
      <input
        type="radio"
        id={id}
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onChange}
      />
      <label for={id}>{props.label}</label>
    </span>
  );
}

/** The exceptions: the dates left out, each removable, and a date to add. */
function Exceptions(props: { rule: RuleState; onRule: (patch: Partial<RuleState>) => void }) {
  const { rule, onRule } = props;
  const [date, setDate] = useState("");
  const add = () => {
    if (!date || rule.exdates.includes(date)) return;
    onRule({ exdates: [...rule.exdates, date].sort() });
    setDate("");
  };
  return (
    <fieldset class="series-exceptions">
      <legend>{t("series_exceptions")}</legend>
      {rule.exdates.length === 0 ? (
        <p class="hint">{t("series_no_exceptions")}</p>
      ) : (
        <ul>
          {rule.exdates.map((d) => (
            <li key={d}>
              <span>{d}</span>{" "}
              <button
                type="button"
                aria-label={`${t("series_remove_exception")} ${d}`}
                onClick={() => onRule({ exdates: rule.exdates.filter((x) => x !== d) })}
              >
                {t("series_remove_exception")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="inline-create">
        <label for="series-exception-date">{t("series_exception_date")}</label>
        <div class="row">
          <input
            type="date"
            id="series-exception-date"
            value={date}
            onInput={(e) => setDate(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" onClick={add}>
            {t("series_add_exception")}
          </button>
        </div>
      </div>
    </fieldset>
  );
}

/** Frequency-specific parts: every N, weekdays, monthly by day or weekday. */
function Pattern(props: {
  form: EventState;
  rule: RuleState;
  onRule: (patch: Partial<RuleState>) => void;
}) {
  const { form, rule, onRule } = props;
  const weekday = weekdayOf(form.startDate);
  return (
    <>
      <Field id="series-interval" label={t("series_interval")}>
        <input
          type="number"
          min={1}
          max={99}
          {...described("series-interval")}
          value={rule.interval}
          onInput={(e) => onRule({ interval: Math.max(1, Number(e.currentTarget.value) || 1) })}
        />
      </Field>
      {rule.freq === "WEEKLY" && (
        <fieldset class="series-weekdays">
          <legend>{t("series_weekdays")}</legend>
          {WEEKDAYS.map((w) => (
            <span class="choice" key={w}>
              <input
                type="checkbox"
                id={`series-weekday-${w}`}
                checked={rule.weekdays.includes(w) || (rule.weekdays.length === 0 && w === weekday)}
                onChange={(e) => {
                  const base = rule.weekdays.length ? rule.weekdays : [weekday];
                  const next = e.currentTarget.checked ? [...base, w] : base.filter((x) => x !== w);
                  onRule({ weekdays: next });
                }}
              />
              <label for={`series-weekday-${w}`}>{t(`series_weekday_${w}`)}</label>
            </span>
          ))}
        </fieldset>
      )}
      {rule.freq === "MONTHLY" && (
        <fieldset class="series-monthly">
          <legend>{t("series_monthly_on")}</legend>
          <Radio
            name="series-monthly"
            value="day"
            checked={rule.monthly === "day"}
            label={`${t("series_monthly_day")} ${Number(form.startDate.slice(8, 10))}`}
            onChange={() => onRule({ monthly: "day" })}
          />
          <Radio
            name="series-monthly"
            value="weekday"
            checked={rule.monthly === "weekday"}
            label={`${t("series_monthly_weekday")} ${t(`series_weekday_${weekday}`)}`}
            onChange={() => onRule({ monthly: "weekday" })}
          />
          {rule.monthly === "weekday" && (
            <Field id="series-ordinal" label={t("series_ordinal")}>
              <select
                {...described("series-ordinal")}
                value={String(rule.ordinal)}
                onChange={(e) => onRule({ ordinal: Number(e.currentTarget.value) })}
              >
                {ORDINALS.map((n) => (
                  <option key={n} value={String(n)}>
                    {`${ordinalName(n)} ${t(`series_weekday_${weekday}`)}`}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </fieldset>
      )}
    </>
  );
}

/** How the series ends: never, on a date, after a number of occurrences. */
function Ends(props: { rule: RuleState; onRule: (patch: Partial<RuleState>) => void }) {
  const { rule, onRule } = props;
  return (
    <fieldset class="series-ends">
      <legend>{t("series_ends")}</legend>
      {(["never", "until", "count"] as const).map((end) => (
        <Radio
          key={end}
          name="series-end"
          value={end}
          checked={rule.end === end}
          label={t(`series_end_${end}`)}
          onChange={() => onRule({ end })}
        />
      ))}
      {rule.end === "until" && (
        <Field id="series-until" label={t("series_until")}>
          <input
            type="date"
            {...described("series-until")}
            value={rule.until}
            onInput={(e) => onRule({ until: e.currentTarget.value })}
          />
        </Field>
      )}
      {rule.end === "count" && (
        <Field id="series-count" label={t("series_count")}>
          <input
            type="number"
            min={1}
            max={1000}
            {...described("series-count")}
            value={rule.count}
            onInput={(e) => onRule({ count: Math.max(1, Number(e.currentTarget.value) || 1) })}
          />
        </Field>
      )}
    </fieldset>
  );
}

/** The "Repeats" fieldset. `error`: the API's message for `recurrence` (a failed save). */
export function SeriesFields(props: {
  form: EventState;
  error?: string;
  onChange: (patch: Partial<EventState>) => void;
}) {
  const { form, onChange } = props;
  const rule = form.rule;
  const dates = { ...form, startTime: form.allDay ? "00:00" : form.startTime };
  const onRule = (patch: Partial<RuleState>) =>
    onChange({ rule: { ...rule, ...patch }, ruleTouched: true });
  return (
    <fieldset class="series" aria-describedby="series-preview-status">
      <legend>{t("series_repeats")}</legend>
      {rule.advanced ? (
        <Field id="series-lines" label={t("series_lines")} hint={t("series_advanced_hint")}>
          <textarea
            rows={4}
            spellcheck={false}
            {...described("series-lines", undefined, t("series_advanced_hint"))}
            value={rule.text}
            onInput={(e) => onRule({ text: e.currentTarget.value })}
          />
        </Field>
      ) : (
        <>
          <Field id="series-freq" label={t("series_freq")}>
            <select
              {...described("series-freq")}
              value={rule.freq}
              onChange={(e) => onRule({ freq: e.currentTarget.value as Freq })}
            >
              {FREQS.map((f) => (
                <option key={f} value={f}>
                  {t(`series_${f.toLowerCase()}`)}
                </option>
              ))}
            </select>
          </Field>
          {rule.freq !== "none" && (
            <>
              <Pattern form={form} rule={rule} onRule={onRule} />
              <Ends rule={rule} onRule={onRule} />
              <Exceptions rule={rule} onRule={onRule} />
            </>
          )}
        </>
      )}
      {!rule.advanced && (
        <button
          type="button"
          class="link"
          onClick={() => onRule({ advanced: true, text: linesOf(rule, dates).join("\n") })}
        >
          {t("series_advanced")}
        </button>
      )}
      {rule.advanced && !builderOf(rule.text, dates).advanced && (
        <button type="button" class="link" onClick={() => onRule(builderOf(rule.text, dates))}>
          {t("series_builder")}
        </button>
      )}
      <SeriesPreview form={form} error={props.error} />
    </fieldset>
  );
}
