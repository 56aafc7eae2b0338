CREATE TABLE `id_sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`next` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `content_version` ADD `private_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: the sequences start after every id ever handed out (posts rows are never deleted;
-- term ids live on in sqlite_sequence and in the tombstones of deleted terms).
INSERT INTO `id_sequences` (`name`, `next`) VALUES
	('post', (SELECT coalesce(max(`id`), 0) + 1 FROM `posts`)),
	('term', max(
		coalesce((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'terms'), 0),
		coalesce((SELECT max(`id`) FROM `terms`), 0),
		coalesce((SELECT max(`id`) FROM `deleted_terms`), 0)
	) + 1);
--> statement-breakpoint
UPDATE `content_version` SET `private_version` = `version`;
