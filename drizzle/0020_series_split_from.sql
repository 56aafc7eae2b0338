-- Recurring series (contract §7.8): a series split off another (`scope=following`) names the series
-- it came from (`series.split_from`); null on every other event row.
ALTER TABLE `events` ADD `split_from` integer;