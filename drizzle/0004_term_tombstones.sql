CREATE TABLE `deleted_terms` (
	`id` integer PRIMARY KEY NOT NULL,
	`taxonomy` text NOT NULL,
	`deleted_gmt` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deleted_terms_deleted` ON `deleted_terms` (`deleted_gmt`);