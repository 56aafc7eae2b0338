-- Recurring series (contract §7.8): a series' `recurrence` lines are stored once, on the series. An
-- override (an event row whose `series_id` is another's) showed a copy of them; it now shows its
-- series' (src/events/load.ts `EVENT_COLUMNS`), and its copy goes. The update marks the overrides'
-- renderings stale (drizzle/0010_event_rendering_triggers.sql): they are rendered again, the same.
UPDATE `events` SET `recurrence` = NULL
  WHERE `series_id` IS NOT NULL AND `series_id` <> `id` AND `recurrence` IS NOT NULL;
