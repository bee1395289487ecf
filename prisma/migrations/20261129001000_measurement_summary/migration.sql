-- Summary statistics a tool publishes instead of samples (k8s-netperf: the mean of n runs and its 95 %
-- interval), and what a figure's samples are (vegeta's concurrent clients of one run): stored beside
-- the figure, in the catalogue's unit, so pages show them and verdicts use them (docs/verdicts.md).
-- No semicolon inside a comment: the schema engine splits the script at each one, comments included.
CREATE TYPE "SamplesKind" AS ENUM ('runs', 'clients');

ALTER TABLE "Measurement"
  ADD COLUMN "summaryMean" DOUBLE PRECISION,
  ADD COLUMN "summarySd" DOUBLE PRECISION,
  ADD COLUMN "summaryLow" DOUBLE PRECISION,
  ADD COLUMN "summaryHigh" DOUBLE PRECISION,
  ADD COLUMN "summaryN" INTEGER,
  ADD COLUMN "summaryOf" "SamplesKind",
  ADD COLUMN "samplesAre" "SamplesKind",
  -- A summary is whole (mean, n and what they are of) or absent, and its interval has both ends.
  ADD CONSTRAINT "Measurement_summary_whole" CHECK (
    ("summaryMean" IS NULL) = ("summaryN" IS NULL) AND ("summaryMean" IS NULL) = ("summaryOf" IS NULL)
    AND ("summaryLow" IS NULL) = ("summaryHigh" IS NULL)
    AND ("summaryMean" IS NOT NULL OR ("summarySd" IS NULL AND "summaryLow" IS NULL)));
