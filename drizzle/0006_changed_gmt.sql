-- Issue 13: the change time of events, venues and organizers, kept apart from the displayed
-- `modified` (which follows WordPress: a new post's `modified` is its post date). `modified_after`
-- and `/deleted` filter on it, so its index replaces the one on `post_modified_gmt`. Existing rows
-- start from their `post_modified_gmt`, the change time they had so far. Plain ADD COLUMN: no table
-- is recreated, so the FTS triggers stay (the UPDATEs touch no indexed text column).
DROP INDEX `events_modified`;--> statement-breakpoint
ALTER TABLE `events` ADD `changed_gmt` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `events` SET `changed_gmt` = `post_modified_gmt`;--> statement-breakpoint
CREATE INDEX `events_changed` ON `events` (`changed_gmt`);--> statement-breakpoint
DROP INDEX `organizers_modified`;--> statement-breakpoint
ALTER TABLE `organizers` ADD `changed_gmt` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `organizers` SET `changed_gmt` = `post_modified_gmt`;--> statement-breakpoint
CREATE INDEX `organizers_changed` ON `organizers` (`changed_gmt`);--> statement-breakpoint
DROP INDEX `venues_modified`;--> statement-breakpoint
ALTER TABLE `venues` ADD `changed_gmt` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `venues` SET `changed_gmt` = `post_modified_gmt`;--> statement-breakpoint
CREATE INDEX `venues_changed` ON `venues` (`changed_gmt`);
