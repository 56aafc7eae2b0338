/**
 * The usage texts of `npm run import` (scripts/import.ts chooses the importer by the source):
 * shown by `--help` of each importer, and both by `npm run import -- --help`.
 */

/** An iCalendar file or feed (scripts/import-ics.ts). */
export const ICS_USAGE = `npm run import -- <file.ics | https://… | webcal://…> [options]
  Loads an iCalendar file or feed into the running instance through its REST API.
  --url <origin or namespace root>  this instance (default http://127.0.0.1:8787)
  --user <name>                     an administrator or editor (default admin)
  --password <application password> default $ADMIN_APP_PASSWORD, else ADMIN_APP_PASSWORD of .dev.vars
  --timezone <IANA zone>            zone of events the file gives none (UTC, floating, all-day);
                                    default: the site's
  --until <date>                    a series this instance cannot hold as one is expanded into
                                    events up to this date, YYYY-MM-DD or ISO 8601 (default: two
                                    years from today)
  --concurrency <n>                 requests in flight (default 4)
  --dry-run                         compare and report, write nothing
  Events are matched by UID: a second run creates nothing and updates what changed. A recurring
  series (RRULE, RDATE, EXDATE, RECURRENCE-ID) becomes one series with overrides; occurrences an
  earlier import made as events (UID#start) are merged into it, and reported.`;

/** A The Events Calendar site's namespace root (scripts/import-tec.ts). */
export const TEC_USAGE = `npm run import -- https://example.org/wp-json/tribe/events/v1 [options]
  Copies a The Events Calendar site (or another instance of this service) into the running
  instance: categories, tags, venues, organizers and events with their links, post dates, costs
  and currencies, and the source's global ids (global_id_lineage).
  --url <origin or namespace root>  this instance (default http://127.0.0.1:8787)
  --user <name>                     an administrator or editor here (default admin)
  --password <application password> default $ADMIN_APP_PASSWORD, else ADMIN_APP_PASSWORD of .dev.vars
  --source-user <name>              a user of the source site; with --source-password (or
  --source-password <app password>  $TEC_SOURCE_PASSWORD) drafts, pending, scheduled and private
                                    posts come too; without, the public data
  --event-password <password>       a password of the source's password-protected events (may be
                                    repeated): an event it opens is copied with it
  --concurrency <n>                 event requests in flight (default 4)
  Posts are matched by the source's global id: a second run against an unchanged source reports
  0 created, 0 updated. A password-protected event comes whole with its password when the source
  user may edit it (WordPress gives editors the password) or an --event-password opens it; else it
  is held back here as a draft, and a note says what is missing.`;
