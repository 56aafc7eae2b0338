/**
 * Parts of the term and operations screens: a destructive button that asks first, a value shown
 * once (a webhook's secret, a new application password) with a copy button, and UTC times of the
 * API (`Y-m-d H:i:s`) in the page's language.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { config, t } from "./config";

/**
 * A button that, pressed, asks `question` with "yes" and "cancel" beside it; `onYes` runs on yes.
 * Focus goes to "cancel" when asking (the safe choice) and back to the button on cancel.
 */
export function Confirm(props: {
  label: string;
  question: string;
  yes: string;
  onYes: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (wasAsking.current) button.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking)
    return (
      <button
        ref={button}
        type="button"
        class="danger"
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  return (
    <span class="confirm">
      <span>{props.question}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          props.onYes();
        }}
      >
        {props.yes}
      </button>
      <button ref={cancel} type="button" onClick={() => setAsking(false)}>
        {t("cancel")}
      </button>
    </span>
  );
}

/**
 * A secret shown this once: its label, the value in a read-only field (selectable), a copy button
 * and the note that it will not be shown again.
 */
export function ShownOnce(props: { id: string; label: string; value: string; note: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    const field = document.getElementById(props.id) as HTMLInputElement | null;
    field?.select();
    navigator.clipboard?.writeText(props.value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section class="shown-once" aria-labelledby={`${props.id}-label`}>
      <label id={`${props.id}-label`} for={props.id}>
        {props.label}
      </label>
      <div class="row">
        <input
          id={props.id}
          readOnly
          value={props.value}
          aria-describedby={`${props.id}-note`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          {t("copy")}
        </button>
      </div>
      <p class="hint" id={`${props.id}-note`}>
        {props.note}
      </p>
      <p class="notice" role="status">
        {copied ? t("copied") : ""}
      </p>
    </section>
  );
}

/**
 * A UTC time of the API (`Y-m-d H:i:s`, e.g. `created_utc`) in the page's language and the
 * browser's zone; `fallback` for null or empty (e.g. "never" for an unused password).
 */
export function utcTime(value: string | null | undefined, fallback = ""): string {
  if (!value) return fallback;
  const ms = Date.parse(`${value.replace(" ", "T")}Z`);
  if (Number.isNaN(ms)) return value;
  return new Intl.DateTimeFormat(config.lang, { dateStyle: "medium", timeStyle: "medium" }).format(
    ms,
  );
}
