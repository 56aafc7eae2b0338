/**
 * Password-protected events of a TEC-site import (contract §7.9, tec-reference §4.7). TEC lists them
 * blanked — no description, excerpt, image, cost, website, flags, terms, venue or organizers — so
 * each one the import meets is opened, where the source allows it:
 *
 * - with the source user's application password, `GET /events/{id}?context=edit` gives its fields
 *   to a user who may edit it, and WordPress's `GET /wp/v2/tribe_events/{id}?context=edit` (the
 *   post type is in the REST API for the block editor) gives its `password`;
 * - a password given for the import (`eventPasswords`) that opens it (`GET /events/{id}?password=…`)
 *   gives both, to anyone.
 *
 * On this instance, a copy protected here is listed blanked too: it is read whole with its
 * password (which also says that the password is the same) or with `context=edit`.
 */
import { type Answer, expectOk, type Requester } from "../client";
import {
  type EventLinks,
  eventChanges,
  eventCreate,
  heldCreate,
  isBlanked,
  keepingStored,
  PROTECTED_FIELDS,
  plain,
  type StoredEvent,
  storedLinks,
  type TecEvent,
} from "./map";
import { getAnswer, type TecSource } from "./source";

/** What the import could read of a password-protected event of the source. */
export interface Opened {
  /** The event whole when the source opened it, else as it was listed (blanked). */
  event: TecEvent;
  /** Whether the source opened it (`event` has every field). */
  whole: boolean;
  /**
   * Its password, when the source gave it or a password of `eventPasswords` opened it (then
   * `whole` is true too); undefined: the copy is held back (`heldNote`).
   */
  password?: string;
  /** Why the source did not give the password, e.g. `wp/v2/tribe_events/7: HTTP 404 rest_no_route`. */
  why?: string;
}

/**
 * The WordPress REST root beside a TEC namespace root (`…/wp-json/tribe/events/v1` →
 * `…/wp-json/wp/v2`): the same site, so the source's credentials may go there. Undefined when the
 * root does not end in `{vendor}/events/v1`.
 */
export function wpRoot(base: string): string | undefined {
  const root = base.replace(/\/+$/, "");
  return /\/[^/]+\/events\/v1$/.test(root)
    ? root.replace(/\/[^/]+\/events\/v1$/, "/wp/v2")
    : undefined;
}

/**
 * Opens a protected event of the source as far as the source allows (see the module's comment).
 * Asks at most: `context=edit` and WordPress's password (with credentials), then each of
 * `eventPasswords` until one opens it (unless the password is known).
 * @param listed the event as the source listed it (blanked, `isBlanked`).
 * @throws ImportError when the source cannot be reached (other answers only mean "not opened").
 * @example const { event, whole, password } = await openProtected(source, listed)
 */
export async function openProtected(
  source: TecSource,
  listed: TecEvent,
  retryDelayMs?: number,
): Promise<Opened> {
  const root = source.base.replace(/\/+$/, "");
  const opens = async (query: Record<string, string>) => {
    const url = `${root}/events/${listed.id}?${new URLSearchParams(query)}`;
    const { status, body } = await getAnswer<TecEvent>(source, url, retryDelayMs);
    return status === 200 && body && typeof body === "object" && !isBlanked(body)
      ? body
      : undefined;
  };
  let event: TecEvent | undefined;
  let password: string | undefined;
  let why: string | undefined;
  if (source.authorization) {
    event = await opens({ context: "edit" });
    const wp = wpRoot(source.base);
    const path = `wp/v2/tribe_events/${listed.id}`;
    if (wp) {
      const { status, body } = await getAnswer<{ password?: unknown; code?: unknown }>(
        source,
        `${wp}/tribe_events/${listed.id}?context=edit`,
        retryDelayMs,
      );
      if (status === 200 && typeof body?.password === "string" && body.password !== "") {
        event ??= await opens({ password: body.password });
        if (event) password = body.password;
        else why = `${path}: its password did not open events/${listed.id}`;
      } else
        why =
          status === 200
            ? `${path}: no password`
            : `${path}: HTTP ${status}${typeof body?.code === "string" ? ` ${body.code}` : ""}`;
    } else why = `no wp/v2 root beside ${root}`;
  }
  if (password === undefined) {
    for (const candidate of source.eventPasswords ?? []) {
      const opened = await opens({ password: candidate });
      if (!opened) continue;
      password = candidate;
      event ??= opened;
      break;
    }
  }
  return { event: event ?? listed, whole: event !== undefined, password, why };
}

/** The advice that ends a note on a protected event the import could not copy whole. */
const HOW = {
  open: "import with the application password of a source user who may edit it, or give the event's password with --event-password",
  password: "set it here, or give it with --event-password",
};

/**
 * The note on a protected event copied without its password (its copy is held back as a draft),
 * naming what is missing: the password, and the protected fields when the source did not open it.
 * @param copy the id of its copy here when it existed before this run (undefined: created now).
 */
export function heldNote(o: Opened, copy?: number): string {
  const e = o.event;
  const what = `event ${e.id} "${plain(e.title)}" is password protected at the source`;
  if (o.whole) {
    const done =
      copy === undefined
        ? "imported as a draft with every other field"
        : `its copy here (event ${copy}) keeps its own status and password`;
    return `${what}, which did not give its password (${o.why ?? "no way to ask for it"}): ${done}; missing: the password (${HOW.password})`;
  }
  const done =
    copy === undefined
      ? "imported as a draft with its title and dates"
      : `its copy here (event ${copy}) keeps its own status and password and what it has of the rest`;
  return `${what}, which did not open it to this import: ${done}; missing: the password, ${PROTECTED_FIELDS.join(", ")} (${HOW.open})`;
}

/** A stored event read whole, and what protects it here. */
export interface StoredWhole {
  event: StoredEvent;
  /** Whether it has a password here. */
  protected: boolean;
  /** Whether that password is the one asked about. */
  samePassword: boolean;
}

/**
 * A stored event of this instance as a whole: as listed when it has no password, else read with
 * `password` (when given: a 200 says the password is the same) or with `context=edit`.
 * @throws ImportError when this instance refuses the read.
 */
export async function storedWhole(
  req: Requester,
  stored: StoredEvent,
  password?: string,
): Promise<StoredWhole> {
  if (!isBlanked(stored)) return { event: stored, protected: false, samePassword: false };
  if (password !== undefined) {
    const answer: Answer<StoredEvent> = await req.send(
      "GET",
      `/events/${stored.id}?${new URLSearchParams({ password })}`,
    );
    if (answer.status === 200 && !isBlanked(answer.body))
      return { event: answer.body, protected: true, samePassword: true };
  }
  const answer: Answer<StoredEvent> = await req.send("GET", `/events/${stored.id}?context=edit`);
  expectOk(answer, `reading event ${stored.id} of this instance`);
  return { event: answer.body, protected: true, samePassword: false };
}

/**
 * The body that creates the copy of a source event: as `eventCreate` makes it for an event without
 * a password; with its password when it has one the import could read; else held back as a draft —
 * with every field when the source opened it, else `heldCreate` (no links: `links` is null).
 */
export function copyCreate(
  e: TecEvent,
  links: EventLinks | null,
  open?: Opened,
): Record<string, unknown> {
  if (links === null) return heldCreate(e);
  const body = eventCreate(e, links);
  if (open?.password !== undefined) body.password = open.password;
  else if (open) body.status = "draft";
  return body;
}

/**
 * The update that makes a stored copy say what its source event says (`eventChanges`), its
 * password included: the source's when it has one the import could read, none when it has none.
 * A held-back copy (its password unknown) keeps its status and password, and, when the source did
 * not open it (`links` null), what it has of the protected fields and links.
 */
export function copyChanges(
  e: TecEvent,
  links: EventLinks | null,
  here: StoredWhole,
  open?: Opened,
): Record<string, unknown> {
  const stored = here.event;
  if (open && open.password === undefined) {
    const kept = keepingStored(e, stored, { status: true, fields: links === null });
    return eventChanges(kept, links ?? storedLinks(stored), stored);
  }
  const changes = eventChanges(e, links ?? storedLinks(stored), stored);
  if (open?.password !== undefined && !here.samePassword) changes.password = open.password;
  if (!open && here.protected) changes.password = "";
  return changes;
}
