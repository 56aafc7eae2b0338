-- The content version (docs: caching) is moved here, in the transaction of every write that changes
-- something anonymous readers can see, instead of by the application: every cached anonymous answer
-- is keyed by the version its data was read at (src/read-cache). Anonymous readers never observe
-- drafts, pending posts or auto-drafts (they are not listed, not counted in term counts or
-- `has_events`, and a single GET of one is a 4xx, which is never cached), so changes to events that
-- leave them in those statuses leave the version alone. Venues and organizers move it with every
-- change, drafts included: the event archive's filters read them whatever their status (`venue=`
-- by slug, `geoloc` by coordinates). Everything else that a list, a single GET, a term count,
-- `/deleted` or the feed shows moves it. The differential test (test/read-cache) holds
-- this list to what the answers really depend on.
ALTER TABLE `content_version` DROP COLUMN `private_version`;
--> statement-breakpoint
CREATE TRIGGER `content_version_events_ai` AFTER INSERT ON `events`
  WHEN new.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_events_au` AFTER UPDATE ON `events`
  WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft') OR new.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_events_ad` AFTER DELETE ON `events`
  WHEN old.`status` NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_venues_ai` AFTER INSERT ON `venues`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_venues_au` AFTER UPDATE ON `venues`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_venues_ad` AFTER DELETE ON `venues`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_organizers_ai` AFTER INSERT ON `organizers`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_organizers_au` AFTER UPDATE ON `organizers`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_organizers_ad` AFTER DELETE ON `organizers`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_media_au` AFTER UPDATE ON `media`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_media_ad` AFTER DELETE ON `media`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_terms_ai` AFTER INSERT ON `terms`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_terms_au` AFTER UPDATE ON `terms`
  WHEN old.`taxonomy` IS NOT new.`taxonomy` OR old.`name` IS NOT new.`name` OR old.`slug` IS NOT new.`slug` OR old.`description` IS NOT new.`description` OR old.`parent` IS NOT new.`parent` OR old.`term_group` IS NOT new.`term_group` OR old.`count` IS NOT new.`count` OR old.`modified_gmt` IS NOT new.`modified_gmt`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_terms_ad` AFTER DELETE ON `terms`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_deleted_terms_ai` AFTER INSERT ON `deleted_terms`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_event_terms_ai` AFTER INSERT ON `event_terms`
  WHEN (SELECT `status` FROM `events` WHERE `id` = new.`event_id`) NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_event_terms_ad` AFTER DELETE ON `event_terms`
  WHEN (SELECT `status` FROM `events` WHERE `id` = old.`event_id`) NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_event_organizers_ai` AFTER INSERT ON `event_organizers`
  WHEN (SELECT `status` FROM `events` WHERE `id` = new.`event_id`) NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_event_organizers_ad` AFTER DELETE ON `event_organizers`
  WHEN (SELECT `status` FROM `events` WHERE `id` = old.`event_id`) NOT IN ('draft', 'pending', 'auto-draft')
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_event_organizers_au` AFTER UPDATE ON `event_organizers`
  WHEN (SELECT `status` FROM `events` WHERE `id` IN (old.`event_id`, new.`event_id`) AND `status` NOT IN ('draft', 'pending', 'auto-draft')) IS NOT NULL
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `content_version_posts_au` AFTER UPDATE ON `posts`
  WHEN old.`deleted_gmt` IS NOT new.`deleted_gmt`
BEGIN
  UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
