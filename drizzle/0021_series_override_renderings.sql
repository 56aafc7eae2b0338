-- Recurring series (contract §7.8, contract §7.9). 1. Overrides an import wrote (`imported`), which a
-- re-import whose file no longer has them reverts.
ALTER TABLE `events` ADD `imported` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- 2. A series' single GET shows, in its JSON-LD `exceptDate`, the
-- original starts of its overrides that moved (src/series/schedule.ts), so its stored rendering
-- (event_renderings, drizzle/0010_event_rendering_triggers.sql) goes stale, in the same transaction,
-- when an override of it comes, goes, or changes its dates or original start.
CREATE TRIGGER `render_series_overrides_ai` AFTER INSERT ON `events`
  WHEN new.`series_id` IS NOT NULL AND new.`series_id` <> new.`id`
BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = new.`series_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_series_overrides_au` AFTER UPDATE OF `start_date`, `start_date_utc`, `timezone`, `all_day`, `occurrence_start`, `series_id` ON `events`
  WHEN (new.`series_id` IS NOT NULL AND new.`series_id` <> new.`id`) OR (old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id`)
BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (new.`series_id`, old.`series_id`) AND `event_id` <> new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_series_overrides_ad` AFTER DELETE ON `events`
  WHEN old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id`
BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = old.`series_id`;
END;
