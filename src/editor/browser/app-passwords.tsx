/**
 * The signed-in user's application passwords (contract §3, `wp/v2/users/me/application-passwords`):
 * the list (name, created, last used), a new one by name — its password shown this once with a
 * copy button, kept nowhere — and revoking one or all (each asks first; all is WordPress's one
 * `DELETE` of the collection).
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { t } from "./config";
import { described, Field, Notice, ProblemBox, problemOf, useAction } from "./fields";
import { Confirm, ShownOnce, utcTime } from "./ops-parts";

/** An application password as the API lists it (never its password). */
interface AppPassword {
  uuid: string;
  app_id: string;
  name: string;
  created: string;
  last_used: string | null;
  last_ip: string | null;
}

const BASE = "wp/v2/users/me/application-passwords";

/** The application passwords screen. */
export function AppPasswords() {
  const [items, setItems] = useState<AppPassword[]>();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; password: string }>();
  const { problem, setProblem, notice, setNotice, busy, run } = useAction();
  const reload = async () => setItems((await api<AppPassword[]>(BASE)).body);
  useEffect(() => {
    reload().catch((err) => {
      setItems([]);
      setProblem(problemOf(err));
    });
  }, []);
  const create = () =>
    run(async () => {
      const { body } = await api<AppPassword & { password: string }>(BASE, {
        method: "POST",
        body: { name },
      });
      setCreated({ name: body.name, password: body.password });
      setName("");
      await reload();
    });
  /** Revokes one password, or every one (`uuid` undefined). */
  const revoke = (uuid?: string) =>
    run(async () => {
      setCreated(undefined);
      await api(uuid === undefined ? BASE : `${BASE}/${uuid}`, { method: "DELETE" });
      setNotice(t("revoked"));
      await reload();
    });
  const errors = problem?.fields ?? {};
  return (
    <section aria-labelledby="app-passwords-title">
      <h1 id="app-passwords-title">{t("app_passwords_title")}</h1>
      <p class="hint">{t("app_passwords_intro")}</p>
      <Notice text={notice} />
      <ProblemBox problem={problem} />
      {created && (
        <ShownOnce
          id="new-app-password"
          label={`${t("new_app_password")}: ${created.name}`}
          value={created.password}
          note={t("shown_once")}
        />
      )}
      <form
        class="record"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field id="app-password-name" label={t("field_app_name")} error={errors.name}>
          <input
            {...described("app-password-name", errors.name)}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t("add_app_password")}
          </button>
        </div>
      </form>
      {!items && <p aria-busy="true">{t("loading")}</p>}
      {items && items.length === 0 && <p class="empty">{t("no_app_passwords")}</p>}
      {items && items.length > 0 && (
        <>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">{t("col_name")}</th>
                <th scope="col">{t("col_created")}</th>
                <th scope="col">{t("col_last_used")}</th>
                <th scope="col">
                  <span class="visually-hidden">{t("col_actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.uuid}>
                  <td data-label={t("col_name")}>{item.name}</td>
                  <td data-label={t("col_created")}>{utcTime(item.created)}</td>
                  <td data-label={t("col_last_used")}>{utcTime(item.last_used, t("never"))}</td>
                  <td>
                    <Confirm
                      label={`${t("revoke")}: ${item.name}`}
                      question={t("confirm_revoke")}
                      yes={t("yes_revoke")}
                      onYes={() => void revoke(item.uuid)}
                      disabled={busy}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="actions">
            <Confirm
              label={t("revoke_all")}
              question={t("confirm_revoke_all")}
              yes={t("yes_revoke")}
              onYes={() => void revoke()}
              disabled={busy}
            />
          </div>
        </>
      )}
    </section>
  );
}
