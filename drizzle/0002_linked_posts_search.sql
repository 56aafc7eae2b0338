-- Full-text search for `GET /venues?search=` and `GET /organizers?search=` (contract §2; tec-reference
-- §7.1: every word must occur in ONE of title, description, excerpt or the type's custom fields). One
-- FTS5 column per searchable field, so a column filter (`city : ("a" AND "b")`) asks for all words in
-- the same field. Trigram tokenizer as for events: substring matches, Unicode case folding; words
-- shorter than three characters are filtered with LIKE instead (src/linked-posts/search.ts).
-- drizzle-kit does not know virtual tables: if a later migration recreates `venues` or `organizers`,
-- it drops these triggers; re-create them and run INSERT INTO venues_fts(venues_fts) VALUES('rebuild')
-- (likewise organizers_fts).
CREATE VIRTUAL TABLE `venues_fts` USING fts5(title, content, excerpt, address, city, province, state, stateprovince, zip, phone, content='venues', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `venues_fts_ai` AFTER INSERT ON `venues` BEGIN
  INSERT INTO venues_fts(rowid, title, content, excerpt, address, city, province, state, stateprovince, zip, phone)
  VALUES (new.id, new.title, new.content, new.excerpt, new.address, new.city, new.province, new.state, new.stateprovince, new.zip, new.phone);
END;
--> statement-breakpoint
CREATE TRIGGER `venues_fts_ad` AFTER DELETE ON `venues` BEGIN
  INSERT INTO venues_fts(venues_fts, rowid, title, content, excerpt, address, city, province, state, stateprovince, zip, phone)
  VALUES ('delete', old.id, old.title, old.content, old.excerpt, old.address, old.city, old.province, old.state, old.stateprovince, old.zip, old.phone);
END;
--> statement-breakpoint
CREATE TRIGGER `venues_fts_au` AFTER UPDATE OF title, content, excerpt, address, city, province, state, stateprovince, zip, phone ON `venues` BEGIN
  INSERT INTO venues_fts(venues_fts, rowid, title, content, excerpt, address, city, province, state, stateprovince, zip, phone)
  VALUES ('delete', old.id, old.title, old.content, old.excerpt, old.address, old.city, old.province, old.state, old.stateprovince, old.zip, old.phone);
  INSERT INTO venues_fts(rowid, title, content, excerpt, address, city, province, state, stateprovince, zip, phone)
  VALUES (new.id, new.title, new.content, new.excerpt, new.address, new.city, new.province, new.state, new.stateprovince, new.zip, new.phone);
END;
--> statement-breakpoint
INSERT INTO venues_fts(venues_fts) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `organizers_fts` USING fts5(title, content, excerpt, phone, email, website, content='organizers', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `organizers_fts_ai` AFTER INSERT ON `organizers` BEGIN
  INSERT INTO organizers_fts(rowid, title, content, excerpt, phone, email, website)
  VALUES (new.id, new.title, new.content, new.excerpt, new.phone, new.email, new.website);
END;
--> statement-breakpoint
CREATE TRIGGER `organizers_fts_ad` AFTER DELETE ON `organizers` BEGIN
  INSERT INTO organizers_fts(organizers_fts, rowid, title, content, excerpt, phone, email, website)
  VALUES ('delete', old.id, old.title, old.content, old.excerpt, old.phone, old.email, old.website);
END;
--> statement-breakpoint
CREATE TRIGGER `organizers_fts_au` AFTER UPDATE OF title, content, excerpt, phone, email, website ON `organizers` BEGIN
  INSERT INTO organizers_fts(organizers_fts, rowid, title, content, excerpt, phone, email, website)
  VALUES ('delete', old.id, old.title, old.content, old.excerpt, old.phone, old.email, old.website);
  INSERT INTO organizers_fts(rowid, title, content, excerpt, phone, email, website)
  VALUES (new.id, new.title, new.content, new.excerpt, new.phone, new.email, new.website);
END;
--> statement-breakpoint
INSERT INTO organizers_fts(organizers_fts) VALUES ('rebuild');
