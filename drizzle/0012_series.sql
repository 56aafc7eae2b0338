-- Recurring series (contract §7.8): an event may be a series (its `recurrence` lines, its own id as
-- `series_id`) or an override of one occurrence (`series_id` its series', `occurrence_start` the
-- occurrence's original start); the other occurrences are materialized in `event_occurrences` up to
-- the series' `horizon_gmt`, with ids from the post sequence. Plain ADD COLUMNs: no table is
-- recreated, so the FTS and other triggers stay. Overrides share their series' slug: the slug index
-- is unique among series and single events only. A series' stored `occurrence` text renders its
-- occurrences (src/events/renderings.ts).
CREATE TABLE `event_occurrences` (
	`id` integer PRIMARY KEY NOT NULL,
	`series_id` integer NOT NULL,
	`occurrence_start` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`start_date_utc` text NOT NULL,
	`end_date_utc` text NOT NULL,
	`timezone_abbr` text NOT NULL,
	`status` text NOT NULL,
	`hide_from_listings` integer NOT NULL,
	`post_date` text NOT NULL,
	`changed_gmt` text NOT NULL,
	FOREIGN KEY (`id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`series_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_occurrences_start` ON `event_occurrences` (`series_id`,`occurrence_start`);--> statement-breakpoint
CREATE INDEX `event_occurrences_archive` ON `event_occurrences` (`status`,`start_date`,`post_date`,`id`,`end_date`) WHERE "event_occurrences"."hide_from_listings" = 0;--> statement-breakpoint
CREATE INDEX `event_occurrences_post_date` ON `event_occurrences` (`post_date`,`id`);--> statement-breakpoint
CREATE INDEX `event_occurrences_changed` ON `event_occurrences` (`changed_gmt`);--> statement-breakpoint
DROP INDEX `events_slug_unique`;--> statement-breakpoint
ALTER TABLE `events` ADD `series_id` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `recurrence` text;--> statement-breakpoint
ALTER TABLE `events` ADD `occurrence_start` text;--> statement-breakpoint
ALTER TABLE `events` ADD `overrides` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `horizon_gmt` text;--> statement-breakpoint
CREATE INDEX `events_series` ON `events` (`series_id`);--> statement-breakpoint
CREATE INDEX `events_horizon` ON `events` (`horizon_gmt`) WHERE "events"."series_id" = "events"."id";--> statement-breakpoint
CREATE UNIQUE INDEX `events_slug_unique` ON `events` (`slug`) WHERE "events"."series_id" IS NULL OR "events"."series_id" = "events"."id";--> statement-breakpoint
ALTER TABLE `event_renderings` ADD `occurrence` text;