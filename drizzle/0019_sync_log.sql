-- Sync without clocks (contract §7.3). `content_version.seq` is the sync clock: the triggers below
-- move it in the transaction of every change of an event (occurrences included), venue, organizer,
-- category or tag, and write the position into `sync_log`. D1 runs one write at a time, so
-- positions follow the order in which writes commit: a list read in one snapshot together with
-- the clock (its cursor) misses nothing that a later `sync_cursor=<cursor>` asks for, however late
-- a write that started before the read commits, and whatever the clocks of the isolates say.
--
-- `sync_log` also keeps, per audience, what readers can no longer see, and since which position
-- (`GET /deleted`): `public_*` for anonymous readers, whose lists show published posts not hidden
-- from listings, password-protected ones blanked; `editor_*` for editors, whose lists show every
-- status but the trash. Levels: 2 listed whole, 1 listed blanked, 0 not listed. A change that
-- lowers an audience's level records the position (`*_seq`), the reason (`*_status`) and the time
-- (`*_gmt`); one that brings the post back whole, or lists it again, clears them. An occurrence of
-- a series is listed as its series is (the series' status and flag are copied to it by
-- drizzle/0013_series_triggers.sql), so a change of the series moves its occurrences too; an
-- occurrence or override that goes while its series stays is `cancelled`.
--
-- `content_version.version_seq` is the anonymous cursor: moved to `seq` only in statements that
-- also move `version` (the conditions of drizzle/0011_content_version_triggers.sql and
-- drizzle/0013_series_triggers.sql), so that an anonymous answer's cursor is a function of the
-- version the read cache keys it by, and covers every change anonymous readers could see in it.
--
-- Hand-written below the generated part: drizzle-kit does not know triggers. A later migration that
-- recreates `events`, `event_occurrences`, `venues`, `organizers`, `terms`, `deleted_terms`, `posts`
-- or `content_version` drops them, and test/sync/log.test.ts fails until they are created again.
CREATE TABLE `sync_log` (
	`type` text NOT NULL,
	`id` integer NOT NULL,
	`seq` integer NOT NULL,
	`public_seq` integer,
	`public_status` text,
	`public_gmt` text,
	`editor_seq` integer,
	`editor_status` text,
	`editor_gmt` text,
	`series_id` integer,
	`occurrence_start` text,
	PRIMARY KEY(`type`, `id`)
);
--> statement-breakpoint
CREATE INDEX `sync_log_changed` ON `sync_log` (`type`,`seq`,`id`);--> statement-breakpoint
CREATE INDEX `sync_log_public` ON `sync_log` (`public_seq`) WHERE "sync_log"."public_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sync_log_editor` ON `sync_log` (`editor_seq`) WHERE "sync_log"."editor_seq" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sync_log_series` ON `sync_log` (`series_id`) WHERE "sync_log"."series_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `content_version` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `content_version` ADD `version_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What had left the calendar before this migration, at position 0 (before any cursor handed out):
-- trashed posts (anonymous readers learn of those that were published when trashed), the
-- occurrences of trashed series, permanently deleted posts and terms.
INSERT INTO `sync_log` (`type`, `id`, `seq`, `public_seq`, `public_status`, `public_gmt`, `editor_seq`, `editor_status`, `editor_gmt`)
  SELECT 'event', `id`, 0, CASE WHEN `trash_meta_status` = 'publish' THEN 0 END, 'trash', `changed_gmt`, 0, 'trash', `changed_gmt` FROM `events` WHERE `status` = 'trash'
  UNION ALL SELECT 'venue', `id`, 0, CASE WHEN `trash_meta_status` = 'publish' THEN 0 END, 'trash', `changed_gmt`, 0, 'trash', `changed_gmt` FROM `venues` WHERE `status` = 'trash'
  UNION ALL SELECT 'organizer', `id`, 0, CASE WHEN `trash_meta_status` = 'publish' THEN 0 END, 'trash', `changed_gmt`, 0, 'trash', `changed_gmt` FROM `organizers` WHERE `status` = 'trash';
--> statement-breakpoint
INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`, `public_seq`, `public_status`, `public_gmt`, `editor_seq`, `editor_status`, `editor_gmt`)
  SELECT 'event', o.`id`, 0, CASE WHEN e.`trash_meta_status` = 'publish' THEN 0 END, 'trash', e.`changed_gmt`, 0, 'trash', e.`changed_gmt`
  FROM `event_occurrences` o JOIN `events` e ON e.`id` = o.`series_id` WHERE e.`status` = 'trash';
--> statement-breakpoint
INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`, `public_seq`, `public_status`, `public_gmt`, `editor_seq`, `editor_status`, `editor_gmt`)
  SELECT CASE `post_type` WHEN 'tribe_events' THEN 'event' WHEN 'tribe_venue' THEN 'venue' ELSE 'organizer' END, `id`, 0, 0, 'deleted', `deleted_gmt`, 0, 'deleted', `deleted_gmt`
  FROM `posts` WHERE `deleted_gmt` IS NOT NULL AND `post_type` IN ('tribe_events', 'tribe_venue', 'tribe_organizer')
  UNION ALL SELECT CASE `taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, `id`, 0, 0, 'deleted', `deleted_gmt`, 0, 'deleted', `deleted_gmt` FROM `deleted_terms`;
--> statement-breakpoint
CREATE TRIGGER `sync_events_ai` AFTER INSERT ON `events`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN new.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END,
    `series_id` = NULL,
    `occurrence_start` = NULL
  FROM (SELECT
    0 AS pub_was,
    CASE WHEN new.`status` = 'publish' AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS pub_why,
    0 AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'event' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_events_au` AFTER UPDATE OF `changed_gmt`, `status`, `hide_from_listings`, `password_digest` ON `events`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') OR new.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    CASE WHEN new.`status` = 'publish' AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'event' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_series_au` AFTER UPDATE OF `status`, `hide_from_listings`, `password_digest` ON `events`
  WHEN new.`series_id` = new.`id` AND ((CASE WHEN old.`status` = 'publish' AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END) <> (CASE WHEN new.`status` = 'publish' AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END) OR (CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END) <> (CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END))
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') OR new.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`)
    SELECT 'event', `id`, 0 FROM `event_occurrences` WHERE `series_id` = new.`id`;
  UPDATE `sync_log` SET
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    CASE WHEN new.`status` = 'publish' AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND new.`hide_from_listings` = 0 THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' WHEN new.`hide_from_listings` = 1 THEN 'hidden' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'event' AND `id` IN (SELECT `id` FROM `event_occurrences` WHERE `series_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `sync_events_ad` AFTER DELETE ON `events`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', old.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END,
    `series_id` = CASE WHEN old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id` THEN old.`series_id` END,
    `occurrence_start` = CASE WHEN old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id` THEN old.`occurrence_start` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    0 AS pub,
    CASE WHEN old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id` THEN 'cancelled' ELSE 'deleted' END AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND old.`hide_from_listings` = 0 THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    0 AS ed,
    CASE WHEN old.`series_id` IS NOT NULL AND old.`series_id` <> old.`id` THEN 'cancelled' ELSE 'deleted' END AS ed_why,
    coalesce((SELECT `deleted_gmt` FROM `posts` WHERE `id` = old.`id`), strftime('%Y-%m-%d %H:%M:%S', 'now')) AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'event' AND `id` = old.`id`;
  UPDATE `sync_log` SET
    `public_status` = CASE WHEN `public_status` = 'cancelled' THEN 'deleted' ELSE `public_status` END,
    `editor_status` = CASE WHEN `editor_status` = 'cancelled' THEN 'deleted' ELSE `editor_status` END
  WHERE old.`series_id` = old.`id` AND `series_id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_occurrences_ai` AFTER INSERT ON `event_occurrences`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN new.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', new.`id`, 0);
  UPDATE `sync_log` SET `seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1),
    `public_seq` = NULL,
    `public_status` = NULL,
    `public_gmt` = NULL,
    `editor_seq` = NULL,
    `editor_status` = NULL,
    `editor_gmt` = NULL,
    `series_id` = NULL,
    `occurrence_start` = NULL
  WHERE `type` = 'event' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_occurrences_au` AFTER UPDATE OF `changed_gmt` ON `event_occurrences`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') OR new.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', new.`id`, 0);
  UPDATE `sync_log` SET `seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1) WHERE `type` = 'event' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_occurrences_ad` AFTER DELETE ON `event_occurrences`
  WHEN NOT EXISTS (SELECT 1 FROM `events` WHERE `id` = old.`id`)
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('event', old.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END,
    `series_id` = old.`series_id`,
    `occurrence_start` = old.`occurrence_start`
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' AND old.`hide_from_listings` = 0 THEN (CASE WHEN (SELECT `password_digest` FROM `events` WHERE `id` = old.`series_id`) = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    0 AS pub,
    'cancelled' AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') AND old.`hide_from_listings` = 0 THEN (CASE WHEN (SELECT `password_digest` FROM `events` WHERE `id` = old.`series_id`) = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    0 AS ed,
    'cancelled' AS ed_why,
    coalesce((SELECT `deleted_gmt` FROM `posts` WHERE `id` = old.`id`), strftime('%Y-%m-%d %H:%M:%S', 'now')) AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'event' AND `id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_venues_ai` AFTER INSERT ON `venues`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('venue', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    0 AS pub_was,
    CASE WHEN new.`status` = 'publish' THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' ELSE 'protected' END AS pub_why,
    0 AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'venue' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_venues_au` AFTER UPDATE OF `changed_gmt`, `status`, `password_digest` ON `venues`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('venue', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    CASE WHEN new.`status` = 'publish' THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' ELSE 'protected' END AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'venue' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_venues_ad` AFTER DELETE ON `venues`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('venue', old.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    0 AS pub,
    'deleted' AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    0 AS ed,
    'deleted' AS ed_why,
    coalesce((SELECT `deleted_gmt` FROM `posts` WHERE `id` = old.`id`), strftime('%Y-%m-%d %H:%M:%S', 'now')) AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'venue' AND `id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_organizers_ai` AFTER INSERT ON `organizers`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('organizer', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    0 AS pub_was,
    CASE WHEN new.`status` = 'publish' THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' ELSE 'protected' END AS pub_why,
    0 AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'organizer' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_organizers_au` AFTER UPDATE OF `changed_gmt`, `status`, `password_digest` ON `organizers`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('organizer', new.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    CASE WHEN new.`status` = 'publish' THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` = 'private' THEN 'private' WHEN new.`status` <> 'publish' THEN 'unpublished' ELSE 'protected' END AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    CASE WHEN new.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN new.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed,
    CASE WHEN new.`status` = 'trash' THEN 'trash' WHEN new.`status` NOT IN ('publish', 'future', 'draft', 'pending', 'private') THEN 'unpublished' ELSE 'protected' END AS ed_why,
    new.`changed_gmt` AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'organizer' AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_organizers_ad` AFTER DELETE ON `organizers`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES ('organizer', old.`id`, 0);
  UPDATE `sync_log` SET
    `seq` = x.pos,
    `public_seq` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.pos ELSE `public_seq` END,
    `public_status` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL ELSE x.pub_why END,
    `public_gmt` = CASE WHEN x.pub = 2 OR x.pub > x.pub_was THEN NULL WHEN x.pub < x.pub_was THEN x.at ELSE `public_gmt` END,
    `editor_seq` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.pos ELSE `editor_seq` END,
    `editor_status` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL ELSE x.ed_why END,
    `editor_gmt` = CASE WHEN x.ed = 2 OR x.ed > x.ed_was THEN NULL WHEN x.ed < x.ed_was THEN x.at ELSE `editor_gmt` END
  FROM (SELECT
    CASE WHEN old.`status` = 'publish' THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS pub_was,
    0 AS pub,
    'deleted' AS pub_why,
    CASE WHEN old.`status` IN ('publish', 'future', 'draft', 'pending', 'private') THEN (CASE WHEN old.`password_digest` = '' THEN 2 ELSE 1 END) ELSE 0 END AS ed_was,
    0 AS ed,
    'deleted' AS ed_why,
    coalesce((SELECT `deleted_gmt` FROM `posts` WHERE `id` = old.`id`), strftime('%Y-%m-%d %H:%M:%S', 'now')) AS at,
    (SELECT `seq` FROM `content_version` WHERE `id` = 1) AS pos) AS x
  WHERE `type` = 'organizer' AND `id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_posts_au` AFTER UPDATE OF `deleted_gmt` ON `posts`
  WHEN new.`deleted_gmt` IS NOT NULL AND new.`post_type` IN ('tribe_events', 'tribe_venue', 'tribe_organizer')
BEGIN
  UPDATE `sync_log` SET
    `public_gmt` = CASE WHEN `public_status` IN ('deleted', 'cancelled') THEN new.`deleted_gmt` ELSE `public_gmt` END,
    `editor_gmt` = CASE WHEN `editor_status` IN ('deleted', 'cancelled') THEN new.`deleted_gmt` ELSE `editor_gmt` END
  WHERE `type` = CASE new.`post_type` WHEN 'tribe_events' THEN 'event' WHEN 'tribe_venue' THEN 'venue' ELSE 'organizer' END
    AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_terms_ai` AFTER INSERT ON `terms`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES (CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, new.`id`, 0);
  UPDATE `sync_log` SET `seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1),
    `public_seq` = NULL, `public_status` = NULL, `public_gmt` = NULL,
    `editor_seq` = NULL, `editor_status` = NULL, `editor_gmt` = NULL
  WHERE `type` = CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_terms_au` AFTER UPDATE OF `modified_gmt` ON `terms`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1,
    `version_seq` = CASE WHEN (old.`taxonomy` IS NOT new.`taxonomy` OR old.`name` IS NOT new.`name` OR old.`slug` IS NOT new.`slug` OR old.`description` IS NOT new.`description` OR old.`parent` IS NOT new.`parent` OR old.`term_group` IS NOT new.`term_group` OR old.`count` IS NOT new.`count` OR old.`modified_gmt` IS NOT new.`modified_gmt`) THEN `seq` + 1 ELSE `version_seq` END WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES (CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, new.`id`, 0);
  UPDATE `sync_log` SET `seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1) WHERE `type` = CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_deleted_terms_ai` AFTER INSERT ON `deleted_terms`
BEGIN
  UPDATE `content_version` SET `seq` = `seq` + 1, `version_seq` = `seq` + 1 WHERE `id` = 1;
  INSERT OR IGNORE INTO `sync_log` (`type`, `id`, `seq`) VALUES (CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, new.`id`, 0);
  UPDATE `sync_log` SET `seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1),
    `public_seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1), `public_status` = 'deleted', `public_gmt` = new.`deleted_gmt`,
    `editor_seq` = (SELECT `seq` FROM `content_version` WHERE `id` = 1), `editor_status` = 'deleted', `editor_gmt` = new.`deleted_gmt`
  WHERE `type` = CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END AND `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sync_version_seq` AFTER UPDATE OF `version` ON `content_version`
BEGIN
  UPDATE `content_version` SET `version_seq` = `seq` WHERE `id` = new.`id`;
END;
