/**
 * The fields of the event form, each labelled, each with the API's message for its argument
 * (`data.params`) beside it. The description is a plain text area of the stored HTML: the API
 * filters the markup (§4.1), the editor never renders it.
 */
import { t } from "./config";
import type { EventRecord, EventState } from "./event-state";
import { Check, described, Field, type FieldErrors, STATUSES, statusName } from "./fields";
import { MultiPicker, VenuePicker } from "./pickers";
import { SeriesFields } from "./series-fields";
import { isOccurrence } from "./series-scope";

/** IANA zones the browser knows, for the time zone field's suggestions. */
const ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
})();

function Dates(props: {
  form: EventState;
  errors: FieldErrors;
  onChange: (patch: Partial<EventState>) => void;
}) {
  const { form, errors, onChange } = props;
  const input = (id: string, type: "date" | "time", key: keyof EventState, error?: string) => (
    <input
      type={type}
      {...described(id, error)}
      value={form[key] as string}
      required
      onInput={(e) => onChange({ [key]: e.currentTarget.value })}
    />
  );
  return (
    <div class="dates">
      <Field id="event-start-date" label={t("field_start_date")} error={errors.start_date}>
        {input("event-start-date", "date", "startDate", errors.start_date)}
      </Field>
      {!form.allDay && (
        <Field id="event-start-time" label={t("field_start_time")}>
          {input("event-start-time", "time", "startTime")}
        </Field>
      )}
      <Field id="event-end-date" label={t("field_end_date")} error={errors.end_date}>
        {input("event-end-date", "date", "endDate", errors.end_date)}
      </Field>
      {!form.allDay && (
        <Field id="event-end-time" label={t("field_end_time")}>
          {input("event-end-time", "time", "endTime")}
        </Field>
      )}
    </div>
  );
}

/** Status, password and the presentation flags. */
function PublishFields(props: {
  form: EventState;
  record?: EventRecord;
  errors: FieldErrors;
  onChange: (patch: Partial<EventState>) => void;
}) {
  const { form, errors, onChange } = props;
  return (
    <>
      <Field id="event-status" label={t("field_status")} error={errors.status}>
        <select
          {...described("event-status", errors.status)}
          value={form.status}
          onChange={(e) => onChange({ status: e.currentTarget.value })}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusName(s)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="event-password"
        label={t("field_password")}
        error={errors.password}
        hint={t("password_hint")}
      >
        <input
          type="text"
          autocomplete="off"
          {...described("event-password", errors.password, t("password_hint"))}
          value={form.password}
          onInput={(e) => onChange({ password: e.currentTarget.value })}
        />
      </Field>
      {props.record && (
        <Check
          id="event-remove-password"
          label={t("field_remove_password")}
          checked={form.removePassword}
          onChange={(removePassword) => onChange({ removePassword })}
        />
      )}
      <Check
        id="event-hidden"
        label={t("field_hide_from_listings")}
        checked={form.hideFromListings}
        error={errors.hide_from_listings}
        onChange={(hideFromListings) => onChange({ hideFromListings })}
      />
      <Check
        id="event-featured"
        label={t("field_featured")}
        checked={form.featured}
        error={errors.featured}
        onChange={(featured) => onChange({ featured })}
      />
    </>
  );
}

/** Every field of the event form. */
export function EventFields(props: {
  form: EventState;
  record?: EventRecord;
  errors: FieldErrors;
  onChange: (patch: Partial<EventState>) => void;
}) {
  const { form, errors, onChange } = props;
  const text = (
    id: string,
    key: keyof EventState,
    wire: string,
    label: string,
    type: "text" | "url" = "text",
  ) => (
    <Field id={id} label={label} error={errors[wire]}>
      <input
        // One attribute for both kinds of text field (Preact types each `type` apart).
        type={type as "text"}
        {...described(id, errors[wire])}
        value={form[key] as string}
        onInput={(e) => onChange({ [key]: e.currentTarget.value })}
      />
    </Field>
  );
  return (
    <>
      {text("event-title-field", "title", "title", t("field_title"))}
      <Field id="event-description" label={t("field_description")} error={errors.description}>
        <textarea
          {...described("event-description", errors.description)}
          rows={6}
          value={form.description}
          onInput={(e) => onChange({ description: e.currentTarget.value })}
        />
      </Field>
      <Dates form={form} errors={errors} onChange={onChange} />
      <Check
        id="event-all-day"
        label={t("field_all_day")}
        checked={form.allDay}
        error={errors.all_day}
        onChange={(allDay) => onChange({ allDay })}
      />
      <Field
        id="event-timezone"
        label={t("field_timezone")}
        error={errors.timezone}
        hint={t("timezone_hint")}
      >
        <input
          {...described("event-timezone", errors.timezone, t("timezone_hint"))}
          list="zones"
          value={form.timezone}
          onInput={(e) => onChange({ timezone: e.currentTarget.value })}
        />
        <datalist id="zones">
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </Field>
      {!isOccurrence(props.record) && (
        <SeriesFields form={form} error={errors.recurrence} onChange={onChange} />
      )}
      {text("event-cost", "cost", "cost", t("field_cost"))}
      {text("event-website", "website", "website", t("field_website"), "url")}
      {text("event-image", "image", "image", t("field_image"), "url")}
      <MultiPicker
        kind="categories"
        legend={t("field_categories")}
        newLabel={t("new_category")}
        known={props.record?.categories ?? []}
        selected={form.categories}
        error={errors.categories}
        onChange={(categories) => onChange({ categories })}
      />
      <MultiPicker
        kind="tags"
        legend={t("field_tags")}
        newLabel={t("new_tag")}
        known={props.record?.tags ?? []}
        selected={form.tags}
        error={errors.tags}
        onChange={(tags) => onChange({ tags })}
      />
      <VenuePicker
        selected={form.venue}
        known={props.record?.venue}
        error={errors.venue}
        onChange={(venue) => onChange({ venue })}
      />
      <MultiPicker
        kind="organizers"
        legend={t("field_organizers")}
        newLabel={t("new_organizer")}
        known={(props.record?.organizer ?? []).map((o) => ({ id: o.id, name: o.organizer ?? "" }))}
        selected={form.organizers}
        error={errors.organizer}
        onChange={(organizers) => onChange({ organizers })}
      />
      <PublishFields {...props} />
    </>
  );
}
