/**
 * The editor's frame: signs the page in (the REST nonce of the session; none → WordPress's sign-in
 * page, which sends the user back here), shows who is signed in with a sign-out link, the
 * language switch and the navigation, and the screen the hash names.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, api, currentNonce, fetchNonce, setNonce, signInUrl } from "./api";
import { AppPasswords } from "./app-passwords";
import { config, t } from "./config";
import { EventForm } from "./event-form";
import { EventList } from "./event-list";
import { LinkedForm, LinkedList } from "./linked";
import { MonthView } from "./month";
import { href, type Resource, type Route, useRoute } from "./route";
import { TermForm, TermList } from "./terms";
import { WebhookDetail } from "./webhook-detail";
import { WebhookList, WebhookNew } from "./webhooks";

/** The signed-in user as `wp/v2/users/me` answers (contract §3). */
interface User {
  id: number;
  name: string;
  roles?: string[];
}

type Boot =
  | { state: "loading" }
  | { state: "ready"; user: User }
  | { state: "failed"; message: string };

async function signIn(): Promise<Boot> {
  const nonce = await fetchNonce();
  if (!nonce) {
    location.assign(signInUrl());
    return { state: "loading" };
  }
  setNonce(nonce);
  try {
    const { body } = await api<User>("wp/v2/users/me");
    return { state: "ready", user: body };
  } catch (err) {
    // The session ended between the two requests: sign in again.
    if (err instanceof ApiFailure && err.status === 401) location.assign(signInUrl());
    return { state: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

function Screen({ route }: { route: Route }) {
  const { resource, item } = route;
  switch (resource) {
    case "events":
      return item === undefined ? <EventList /> : <EventForm key={item} id={item} />;
    case "calendar":
      return <MonthView month={route.month} />;
    case "categories":
    case "tags":
      return item === undefined ? (
        <TermList key={resource} kind={resource} />
      ) : (
        <TermForm key={`${resource}/${item}`} kind={resource} id={item} />
      );
    case "webhooks":
      if (item === undefined) return <WebhookList />;
      return item === "new" ? <WebhookNew /> : <WebhookDetail key={item} id={item} />;
    case "app-passwords":
      return <AppPasswords />;
    default:
      return item === undefined ? (
        <LinkedList key={resource} kind={resource} />
      ) : (
        <LinkedForm key={`${resource}/${item}`} kind={resource} id={item} />
      );
  }
}

/** The navigation's entries; webhooks only for administrators (the API refuses everyone else). */
function navOf(user: User): Array<[Resource, string]> {
  const admin = user.roles?.includes("administrator") ?? false;
  return [
    ["events", t("nav_events")],
    ["calendar", t("nav_calendar")],
    ["venues", t("nav_venues")],
    ["organizers", t("nav_organizers")],
    ["categories", t("nav_categories")],
    ["tags", t("nav_tags")],
    ...(admin ? [["webhooks", t("nav_webhooks")] as [Resource, string]] : []),
    ["app-passwords", t("nav_app_passwords")],
  ];
}

function Header({ user, route }: { user: User; route: Route }) {
  const signOut = `${config.loginPath}?action=logout&_wpnonce=${encodeURIComponent(currentNonce())}`;
  const nav = navOf(user);
  return (
    <header class="top">
      <p class="brand">{t("title")}</p>
      <nav aria-label={t("nav_label")}>
        <ul class="nav">
          {nav.map(([resource, label]) => (
            <li key={resource}>
              <a
                href={href({ resource })}
                aria-current={route.resource === resource ? "page" : undefined}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="account">
        <nav aria-label={t("languages")} class="languages">
          {config.languages.map((l) => (
            <a
              key={l.code}
              href={l.path + location.hash}
              hreflang={l.code}
              lang={l.code}
              aria-current={l.code === config.lang ? "true" : undefined}
            >
              {l.name}
            </a>
          ))}
        </nav>
        <span class="user">
          {t("signed_in_as")} <strong>{user.name}</strong>
        </span>
        <a href={signOut} class="sign-out">
          {t("sign_out")}
        </a>
      </div>
    </header>
  );
}

/** The whole editor. */
export function App() {
  const [boot, setBoot] = useState<Boot>({ state: "loading" });
  const route = useRoute();
  useEffect(() => {
    signIn().then(setBoot);
  }, []);
  // A new screen: keyboard and screen-reader users start at its content, not at the old button.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else document.getElementById("main")?.focus();
  }, [route.resource, route.item]);
  if (boot.state === "loading") return <p class="boot">{t("loading")}</p>;
  if (boot.state === "failed")
    return (
      <p class="error" role="alert">
        {boot.message}
      </p>
    );
  return (
    <>
      <a class="skip" href="#main">
        {t("skip_to_content")}
      </a>
      <Header user={boot.user} route={route} />
      <main id="main" tabIndex={-1}>
        <Screen route={route} />
      </main>
    </>
  );
}
