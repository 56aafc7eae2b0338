-- Indexes for calendars with many occurrences (npm run bench -- --sizes series: 510,000):
-- 1. The occurrences' archive index (drizzle/0012_series.sql) with `series_id` last: a list filtered
--    on its series' content (`series_id IN (…)`: categories, tags, search, venue, organizer …) is
--    decided, counted and paged from the index alone. Without it every occurrence of the window was
--    read from the table to learn its series (`categories=…`: 1.3 s).
-- 2. `status`: the occurrences of trashed series (`GET /deleted`) are looked up, not found by a
--    scan of every occurrence (95 ms).
DROP INDEX `event_occurrences_archive`;--> statement-breakpoint
CREATE INDEX `event_occurrences_status` ON `event_occurrences` (`status`);--> statement-breakpoint
CREATE INDEX `event_occurrences_archive` ON `event_occurrences` (`status`,`start_date`,`post_date`,`id`,`end_date`,`series_id`) WHERE "event_occurrences"."hide_from_listings" = 0;