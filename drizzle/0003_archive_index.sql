DROP INDEX `events_listing`;--> statement-breakpoint
DROP INDEX `events_listing_end`;--> statement-breakpoint
CREATE INDEX `events_archive` ON `events` (`status`,`start_date`,`post_date`,`id`,`end_date`) WHERE "events"."hide_from_listings" = 0;