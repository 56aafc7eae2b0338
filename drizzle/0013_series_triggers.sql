-- Recurring series (contract §7.8): what the triggers of the earlier migrations do for events, done
-- for the occurrences of series, in the transaction of the write that changes them.
--
-- 1. An occurrence carries its series' `status`, `hide_from_listings` and `post_date` (a list reads
--    the occurrences' index alone, as it reads `events_archive`): every change of them on the series
--    is copied to its occurrences here, whoever writes it (an update, a trash, a write elsewhere).
CREATE TRIGGER `series_occurrences_au` AFTER UPDATE OF `status`, `hide_from_listings`, `post_date` ON `events`
  WHEN new.`series_id` = new.`id`
BEGIN
  UPDATE `event_occurrences` SET `status` = new.`status`, `hide_from_listings` = new.`hide_from_listings`, `post_date` = new.`post_date`
    WHERE `series_id` = new.`id`
      AND (`status` IS NOT new.`status` OR `hide_from_listings` IS NOT new.`hide_from_listings` OR `post_date` IS NOT new.`post_date`);
END;
--> statement-breakpoint
-- 2. The content version (drizzle/0011_content_version_triggers.sql): occurrences are listed and read
--    by anonymous readers like events, so every one that is or was visible moves it — the writes of
--    the API and the scheduled handler's materialization alike.
CREATE TRIGGER `content_version_occurrences_ai` AFTER INSERT ON `event_occurrences`
  WHEN new.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_occurrences_au` AFTER UPDATE ON `event_occurrences`
  WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') OR new.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_occurrences_ad` AFTER DELETE ON `event_occurrences`
  WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
-- 3. Webhooks (drizzle/0007_webhooks.sql): a change of a series is one `event.*` for the series, not
--    one per override it is copied to. Overrides (event rows whose `series_id` is another's) have
--    no triggers here: a write of one occurrence queues its own `event.updated` in its batch
--    (src/series/occurrence-save.ts), and what a series' write does to its overrides (copies,
--    moves, deletions) is that write's one message for the series.
DROP TRIGGER `webhook_events_ai`;
--> statement-breakpoint
DROP TRIGGER `webhook_events_au`;
--> statement-breakpoint
DROP TRIGGER `webhook_events_ad`;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_ai` AFTER INSERT ON `events`
  WHEN (new.`series_id` IS NULL OR new.`series_id` = new.`id`) AND EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active')
BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', new.`id`, 'created', new.`status`, NULL, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_au` AFTER UPDATE ON `events`
  WHEN (new.`series_id` IS NULL OR new.`series_id` = new.`id`) AND EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active')
BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', new.`id`, CASE WHEN new.`status` = 'trash' AND old.`status` <> 'trash' THEN 'trashed' ELSE 'updated' END, new.`status`, old.`status`, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_ad` AFTER DELETE ON `events`
  WHEN (old.`series_id` IS NULL OR old.`series_id` = old.`id`) AND EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active')
BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', old.`id`, 'deleted', 'deleted', old.`status`, strftime('%Y-%m-%d %H:%M:%S', 'now'), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
