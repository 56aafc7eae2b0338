CREATE TABLE `application_passwords` (
	`uuid` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`app_id` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`password_digest` text NOT NULL,
	`created` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `application_passwords_digest_unique` ON `application_passwords` (`password_digest`);--> statement-breakpoint
CREATE INDEX `application_passwords_user` ON `application_passwords` (`user_id`);--> statement-breakpoint
CREATE TABLE `content_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `event_organizers` (
	`event_id` integer NOT NULL,
	`organizer_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`event_id`, `organizer_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organizer_id`) REFERENCES `organizers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_organizers_organizer` ON `event_organizers` (`organizer_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `event_terms` (
	`event_id` integer NOT NULL,
	`term_id` integer NOT NULL,
	PRIMARY KEY(`event_id`, `term_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`term_id`) REFERENCES `terms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_terms_term` ON `event_terms` (`term_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY NOT NULL,
	`author` integer,
	`status` text DEFAULT 'publish' NOT NULL,
	`trash_meta_status` text DEFAULT '' NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`password_digest` text DEFAULT '' NOT NULL,
	`post_date` text NOT NULL,
	`post_date_gmt` text NOT NULL,
	`post_modified` text NOT NULL,
	`post_modified_gmt` text NOT NULL,
	`global_id_lineage` text DEFAULT '[]' NOT NULL,
	`post_parent` integer DEFAULT 0 NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`start_date_utc` text NOT NULL,
	`end_date_utc` text NOT NULL,
	`timezone` text NOT NULL,
	`timezone_abbr` text NOT NULL,
	`all_day` integer DEFAULT false NOT NULL,
	`cost` text DEFAULT '[]' NOT NULL,
	`currency_symbol` text DEFAULT '' NOT NULL,
	`currency_position` text DEFAULT '' NOT NULL,
	`currency_code` text DEFAULT '' NOT NULL,
	`website` text,
	`show_map` integer DEFAULT true NOT NULL,
	`show_map_link` integer DEFAULT true NOT NULL,
	`hide_from_listings` integer DEFAULT false NOT NULL,
	`sticky` integer DEFAULT false NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`ticketed` integer DEFAULT false NOT NULL,
	`venue_id` integer,
	`image_id` integer,
	`uid` text,
	FOREIGN KEY (`id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`image_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_slug_unique` ON `events` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_uid_unique` ON `events` (`uid`);--> statement-breakpoint
CREATE INDEX `events_listing` ON `events` (`status`,`start_date`,`post_date`,`id`) WHERE "events"."hide_from_listings" = 0;--> statement-breakpoint
CREATE INDEX `events_listing_end` ON `events` (`status`,`end_date`) WHERE "events"."hide_from_listings" = 0;--> statement-breakpoint
CREATE INDEX `events_start` ON `events` (`start_date`,`post_date`,`id`);--> statement-breakpoint
CREATE INDEX `events_post_date` ON `events` (`post_date`,`id`);--> statement-breakpoint
CREATE INDEX `events_venue` ON `events` (`venue_id`);--> statement-breakpoint
CREATE INDEX `events_parent` ON `events` (`post_parent`);--> statement-breakpoint
CREATE INDEX `events_author` ON `events` (`author`,`status`);--> statement-breakpoint
CREATE INDEX `events_featured` ON `events` (`featured`,`start_date`);--> statement-breakpoint
CREATE INDEX `events_modified` ON `events` (`post_modified_gmt`);--> statement-breakpoint
CREATE TABLE `media` (
	`id` integer PRIMARY KEY NOT NULL,
	`author` integer,
	`status` text DEFAULT 'publish' NOT NULL,
	`trash_meta_status` text DEFAULT '' NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`password_digest` text DEFAULT '' NOT NULL,
	`post_date` text NOT NULL,
	`post_date_gmt` text NOT NULL,
	`post_modified` text NOT NULL,
	`post_modified_gmt` text NOT NULL,
	`global_id_lineage` text DEFAULT '[]' NOT NULL,
	`source_url` text NOT NULL,
	`alt_text` text DEFAULT '' NOT NULL,
	`mime_type` text NOT NULL,
	`width` integer,
	`height` integer,
	`filesize` integer,
	FOREIGN KEY (`id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `media_source_url` ON `media` (`source_url`);--> statement-breakpoint
CREATE TABLE `organizers` (
	`id` integer PRIMARY KEY NOT NULL,
	`author` integer,
	`status` text DEFAULT 'publish' NOT NULL,
	`trash_meta_status` text DEFAULT '' NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`password_digest` text DEFAULT '' NOT NULL,
	`post_date` text NOT NULL,
	`post_date_gmt` text NOT NULL,
	`post_modified` text NOT NULL,
	`post_modified_gmt` text NOT NULL,
	`global_id_lineage` text DEFAULT '[]' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`website` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`image_id` integer,
	FOREIGN KEY (`id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`image_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizers_slug_unique` ON `organizers` (`slug`);--> statement-breakpoint
CREATE INDEX `organizers_status_date` ON `organizers` (`status`,`post_date`,`id`);--> statement-breakpoint
CREATE INDEX `organizers_title` ON `organizers` (lower("title"));--> statement-breakpoint
CREATE INDEX `organizers_modified` ON `organizers` (`post_modified_gmt`);--> statement-breakpoint
CREATE TABLE `posts` (
	`id` integer PRIMARY KEY NOT NULL,
	`post_type` text NOT NULL,
	`deleted_gmt` text
);
--> statement-breakpoint
CREATE INDEX `posts_deleted` ON `posts` (`post_type`,`deleted_gmt`);--> statement-breakpoint
CREATE TABLE `terms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`taxonomy` text NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`parent` integer DEFAULT 0 NOT NULL,
	`term_group` integer DEFAULT 0 NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`modified_gmt` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `terms_taxonomy_slug_unique` ON `terms` (`taxonomy`,`slug`);--> statement-breakpoint
CREATE INDEX `terms_taxonomy_name` ON `terms` (`taxonomy`,lower("name"));--> statement-breakpoint
CREATE INDEX `terms_parent` ON `terms` (`taxonomy`,`parent`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`slug` text NOT NULL,
	`role` text NOT NULL,
	`password_digest` text DEFAULT '' NOT NULL,
	`registered` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_slug_unique` ON `users` (`slug`);--> statement-breakpoint
CREATE TABLE `venues` (
	`id` integer PRIMARY KEY NOT NULL,
	`author` integer,
	`status` text DEFAULT 'publish' NOT NULL,
	`trash_meta_status` text DEFAULT '' NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`password_digest` text DEFAULT '' NOT NULL,
	`post_date` text NOT NULL,
	`post_date_gmt` text NOT NULL,
	`post_modified` text NOT NULL,
	`post_modified_gmt` text NOT NULL,
	`global_id_lineage` text DEFAULT '[]' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`province` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`zip` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`stateprovince` text DEFAULT '' NOT NULL,
	`website` text DEFAULT '' NOT NULL,
	`show_map` integer DEFAULT true NOT NULL,
	`show_map_link` integer DEFAULT true NOT NULL,
	`geo_lat` real,
	`geo_lng` real,
	`image_id` integer,
	FOREIGN KEY (`id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`image_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `venues_slug_unique` ON `venues` (`slug`);--> statement-breakpoint
CREATE INDEX `venues_status_date` ON `venues` (`status`,`post_date`,`id`);--> statement-breakpoint
CREATE INDEX `venues_title` ON `venues` (lower("title"));--> statement-breakpoint
CREATE INDEX `venues_modified` ON `venues` (`post_modified_gmt`);--> statement-breakpoint
CREATE INDEX `venues_geo` ON `venues` (`geo_lat`,`geo_lng`);