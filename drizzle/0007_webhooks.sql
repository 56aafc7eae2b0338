CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` integer NOT NULL,
	`message_id` text NOT NULL,
	`type` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`created_gmt` text NOT NULL,
	`next_attempt_gmt` text,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`object_id` integer NOT NULL,
	`action` text NOT NULL,
	`status` text NOT NULL,
	`old_status` text,
	`modified_gmt` text NOT NULL,
	`created_gmt` text NOT NULL,
	`claim` text,
	`claimed_until` text
);
--> statement-breakpoint
CREATE TABLE `webhook_windows` (
	`webhook_id` integer PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`since_gmt` text NOT NULL,
	`until_gmt` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`venues` integer DEFAULT 0 NOT NULL,
	`organizers` integer DEFAULT 0 NOT NULL,
	`categories` integer DEFAULT 0 NOT NULL,
	`tags` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`coalesce_seconds` integer DEFAULT 30 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`created_gmt` text NOT NULL,
	`modified_gmt` text NOT NULL
);
--> statement-breakpoint
-- Hand-written: the webhook outbox (issue 18). Every committed change of an event, venue, organizer,
-- category or tag leaves a row in `webhook_outbox`, written by these triggers inside the write's own
-- batch, so a rolled-back write leaves none and a committed one cannot lose them; only while some
-- webhook is active. drizzle-kit does not know triggers: a later migration that recreates one of these
-- tables drops them, and test/webhooks/outbox.test.ts fails until they are created again.
CREATE TRIGGER `webhook_events_ai` AFTER INSERT ON `events` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', new.`id`, 'created', new.`status`, NULL, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_au` AFTER UPDATE ON `events` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', new.`id`, CASE WHEN new.`status` = 'trash' AND old.`status` <> 'trash' THEN 'trashed' ELSE 'updated' END, new.`status`, old.`status`, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_events_ad` AFTER DELETE ON `events` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('event', old.`id`, 'deleted', 'deleted', old.`status`, strftime('%Y-%m-%d %H:%M:%S', 'now'), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_venues_ai` AFTER INSERT ON `venues` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('venue', new.`id`, 'created', new.`status`, NULL, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_venues_au` AFTER UPDATE ON `venues` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('venue', new.`id`, CASE WHEN new.`status` = 'trash' AND old.`status` <> 'trash' THEN 'trashed' ELSE 'updated' END, new.`status`, old.`status`, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_venues_ad` AFTER DELETE ON `venues` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('venue', old.`id`, 'deleted', 'deleted', old.`status`, strftime('%Y-%m-%d %H:%M:%S', 'now'), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_organizers_ai` AFTER INSERT ON `organizers` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('organizer', new.`id`, 'created', new.`status`, NULL, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_organizers_au` AFTER UPDATE ON `organizers` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('organizer', new.`id`, CASE WHEN new.`status` = 'trash' AND old.`status` <> 'trash' THEN 'trashed' ELSE 'updated' END, new.`status`, old.`status`, new.`post_modified_gmt`, strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_organizers_ad` AFTER DELETE ON `organizers` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES ('organizer', old.`id`, 'deleted', 'deleted', old.`status`, strftime('%Y-%m-%d %H:%M:%S', 'now'), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
-- Terms: the recount of `count` alone is not a change of the term.
CREATE TRIGGER `webhook_terms_ai` AFTER INSERT ON `terms` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES (CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, new.`id`, 'created', 'publish', NULL, coalesce(nullif(new.`modified_gmt`, ''), strftime('%Y-%m-%d %H:%M:%S', 'now')), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_terms_au` AFTER UPDATE ON `terms` WHEN (old.`name` IS NOT new.`name` OR old.`slug` IS NOT new.`slug` OR old.`description` IS NOT new.`description` OR old.`parent` IS NOT new.`parent` OR old.`modified_gmt` IS NOT new.`modified_gmt`) AND EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES (CASE new.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, new.`id`, 'updated', 'publish', NULL, coalesce(nullif(new.`modified_gmt`, ''), strftime('%Y-%m-%d %H:%M:%S', 'now')), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_terms_ad` AFTER DELETE ON `terms` WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `status` = 'active') BEGIN
  INSERT INTO `webhook_outbox` (`kind`, `object_id`, `action`, `status`, `old_status`, `modified_gmt`, `created_gmt`)
  VALUES (CASE old.`taxonomy` WHEN 'tribe_events_cat' THEN 'category' ELSE 'tag' END, old.`id`, 'deleted', 'deleted', NULL, strftime('%Y-%m-%d %H:%M:%S', 'now'), strftime('%Y-%m-%d %H:%M:%S', 'now'));
END;
