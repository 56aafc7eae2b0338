-- Password-protected events, which are few: the filters' rule (src/events/filter-visibility.ts)
-- asks by id which of them the viewer may not open, so that a filter on a field protection blanks
-- (categories, tags, featured, the venue's coordinates) reads this index once and the archive
-- indexes stay covering — a count never reads the events' rows.
CREATE INDEX `events_protected` ON `events` (`id`) WHERE "events"."password_digest" <> '';
