-- Claims of a partition that ended because their node died (its lease expired, or it was given back
-- when the node started again) or stopped: they are not the partition's fault, and do not count
-- toward max_attempts, which the claims given back by a living node do.
ALTER TABLE partitions ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0;
