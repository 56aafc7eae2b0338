-- Browser sign-in sessions (contract §3.1): the cookie's token kept only as its SHA-256 digest;
-- a user's sessions go with the user (and are deleted explicitly where a password changes).
CREATE TABLE `sessions` (
	`digest` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_ms` integer NOT NULL,
	`expires_ms` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);