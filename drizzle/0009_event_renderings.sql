CREATE TABLE `event_renderings` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`list` text,
	`single` text,
	`render_key` text DEFAULT '' NOT NULL,
	`stale` integer DEFAULT true NOT NULL,
	`gen` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_renderings_stale` ON `event_renderings` (`event_id`) WHERE "event_renderings"."stale" = 1;