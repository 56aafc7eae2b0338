-- Full-text search for `GET /events?search=` (tec-reference §6.3: every word must occur in the title,
-- the description or the excerpt). The trigram tokenizer matches substrings, like WordPress's LIKE
-- search, case-insensitively; words shorter than three characters are filtered with LIKE instead.
-- drizzle-kit does not know virtual tables: if a later migration recreates `events`, it drops these
-- triggers; re-create them and run INSERT INTO events_fts(events_fts) VALUES('rebuild').
CREATE VIRTUAL TABLE `events_fts` USING fts5(title, content, excerpt, content='events', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `events_fts_ai` AFTER INSERT ON `events` BEGIN
  INSERT INTO events_fts(rowid, title, content, excerpt) VALUES (new.id, new.title, new.content, new.excerpt);
END;
--> statement-breakpoint
CREATE TRIGGER `events_fts_ad` AFTER DELETE ON `events` BEGIN
  INSERT INTO events_fts(events_fts, rowid, title, content, excerpt) VALUES ('delete', old.id, old.title, old.content, old.excerpt);
END;
--> statement-breakpoint
CREATE TRIGGER `events_fts_au` AFTER UPDATE OF title, content, excerpt ON `events` BEGIN
  INSERT INTO events_fts(events_fts, rowid, title, content, excerpt) VALUES ('delete', old.id, old.title, old.content, old.excerpt);
  INSERT INTO events_fts(rowid, title, content, excerpt) VALUES (new.id, new.title, new.content, new.excerpt);
END;
--> statement-breakpoint
-- The first administrator (contract §3); it authenticates with the ADMIN_APP_PASSWORD secret.
INSERT INTO `users` (`id`, `username`, `name`, `email`, `slug`, `role`, `registered`)
VALUES (1, 'admin', 'admin', '', 'admin', 'administrator', '1970-01-01 00:00:00');
--> statement-breakpoint
-- A random start, so a database created anew never repeats the versions (and cache keys) of an older one.
INSERT INTO `content_version` (`id`, `version`) VALUES (1, abs(random() % 1000000000) + 1);
