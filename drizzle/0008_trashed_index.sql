CREATE INDEX `events_trashed` ON `events` (`status`,`trash_meta_status`,`changed_gmt`);--> statement-breakpoint
CREATE INDEX `organizers_trashed` ON `organizers` (`status`,`trash_meta_status`,`changed_gmt`);--> statement-breakpoint
CREATE INDEX `venues_trashed` ON `venues` (`status`,`trash_meta_status`,`changed_gmt`);