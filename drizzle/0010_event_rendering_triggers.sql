-- Issue 16: rendered events (event_renderings) are marked stale, in the same transaction, by every
-- write that changes what an event shows: the event itself, its terms and organizers, its venue,
-- organizers, terms and images (and the images of its venue and organizers), and who wrote it.
-- `gen` is drawn anew (at random, below 2^53) with every marking, so a rendering made from data read
-- before the change is never stored (src/events/render-store.ts), and an event id with a generation
-- names one rendering for good, even across a restored database (src/events/rendering-memory.ts).
-- Every event has a row: new ones start stale.
INSERT INTO `event_renderings` (`event_id`, `gen`) SELECT `id`, abs(random()) % 9007199254740991 FROM `events`;
--> statement-breakpoint
CREATE TRIGGER `render_events_ai` AFTER INSERT ON `events` BEGIN
  INSERT INTO `event_renderings` (`event_id`, `gen`) VALUES (new.`id`, abs(random()) % 9007199254740991)
    ON CONFLICT (`event_id`) DO UPDATE SET `stale` = 1, `gen` = abs(random()) % 9007199254740991;
END;
--> statement-breakpoint
CREATE TRIGGER `render_events_au` AFTER UPDATE ON `events` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_event_terms_ai` AFTER INSERT ON `event_terms` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = new.`event_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_event_terms_ad` AFTER DELETE ON `event_terms` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = old.`event_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_event_organizers_ai` AFTER INSERT ON `event_organizers` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = new.`event_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_event_organizers_au` AFTER UPDATE ON `event_organizers` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` IN (old.`event_id`, new.`event_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_event_organizers_ad` AFTER DELETE ON `event_organizers` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991 WHERE `event_id` = old.`event_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `render_venues_au` AFTER UPDATE ON `venues` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `id` FROM `events` WHERE `venue_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_venues_bd` BEFORE DELETE ON `venues` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `id` FROM `events` WHERE `venue_id` = old.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_organizers_au` AFTER UPDATE ON `organizers` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `event_id` FROM `event_organizers` WHERE `organizer_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_organizers_bd` BEFORE DELETE ON `organizers` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `event_id` FROM `event_organizers` WHERE `organizer_id` = old.`id`);
END;
--> statement-breakpoint
-- A term's count is filled in per request; only what else an event shows of it marks its events.
CREATE TRIGGER `render_terms_au` AFTER UPDATE ON `terms`
  WHEN old.`name` IS NOT new.`name` OR old.`slug` IS NOT new.`slug` OR old.`description` IS NOT new.`description`
    OR old.`parent` IS NOT new.`parent` OR old.`term_group` IS NOT new.`term_group` OR old.`taxonomy` IS NOT new.`taxonomy`
BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `event_id` FROM `event_terms` WHERE `term_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_terms_bd` BEFORE DELETE ON `terms` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `event_id` FROM `event_terms` WHERE `term_id` = old.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `render_media_au` AFTER UPDATE ON `media` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (
      SELECT `id` FROM `events` WHERE `image_id` = new.`id`
      UNION SELECT e.`id` FROM `events` e JOIN `venues` v ON v.`id` = e.`venue_id` WHERE v.`image_id` = new.`id`
      UNION SELECT eo.`event_id` FROM `event_organizers` eo JOIN `organizers` o ON o.`id` = eo.`organizer_id` WHERE o.`image_id` = new.`id`
    );
END;
--> statement-breakpoint
CREATE TRIGGER `render_media_bd` BEFORE DELETE ON `media` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (
      SELECT `id` FROM `events` WHERE `image_id` = old.`id`
      UNION SELECT e.`id` FROM `events` e JOIN `venues` v ON v.`id` = e.`venue_id` WHERE v.`image_id` = old.`id`
      UNION SELECT eo.`event_id` FROM `event_organizers` eo JOIN `organizers` o ON o.`id` = eo.`organizer_id` WHERE o.`image_id` = old.`id`
    );
END;
--> statement-breakpoint
CREATE TRIGGER `render_users_bd` BEFORE DELETE ON `users` BEGIN
  UPDATE `event_renderings` SET `stale` = 1, `gen` = abs(random()) % 9007199254740991
    WHERE `event_id` IN (SELECT `id` FROM `events` WHERE `author` = old.`id`);
END;
