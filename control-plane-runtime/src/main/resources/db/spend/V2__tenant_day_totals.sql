-- Issue 23: settled spend per tenant and UTC day, so that a reservation reads at most a month of day
-- rows instead of summing every call of the tenant's month (which grew with the month: cpctl bench P9).
-- Kept by a trigger on the per-call rows, so it stays right whoever settles (workers of an earlier
-- version too, which still sum the per-call rows themselves).
CREATE TABLE IF NOT EXISTS cp_tenant_days (
  tenant text NOT NULL,
  day    text NOT NULL,
  month  text NOT NULL,
  spent  numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, day)
);
CREATE INDEX IF NOT EXISTS cp_tenant_days_month ON cp_tenant_days (tenant, month);

CREATE OR REPLACE FUNCTION cp_tenant_days_apply() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.actual IS NOT NULL THEN
    UPDATE cp_tenant_days SET spent = spent - OLD.actual WHERE tenant = OLD.tenant AND day = OLD.day;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.actual IS NOT NULL THEN
    INSERT INTO cp_tenant_days (tenant, day, month, spent) VALUES (NEW.tenant, NEW.day, NEW.month, NEW.actual)
      ON CONFLICT (tenant, day) DO UPDATE SET spent = cp_tenant_days.spent + EXCLUDED.spent;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- What the calls settled so far have spent (the trigger below keeps it from now on).
LOCK TABLE cp_tenant_reservations IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO cp_tenant_days (tenant, day, month, spent)
  SELECT tenant, day, month, sum(actual) FROM cp_tenant_reservations WHERE actual IS NOT NULL
  GROUP BY tenant, day, month
  ON CONFLICT (tenant, day) DO UPDATE SET spent = EXCLUDED.spent;

CREATE TRIGGER cp_tenant_days_apply AFTER INSERT OR UPDATE OF actual OR DELETE ON cp_tenant_reservations
  FOR EACH ROW EXECUTE FUNCTION cp_tenant_days_apply();

-- The calls in flight: what a reservation sums besides the day rows.
CREATE INDEX IF NOT EXISTS cp_tenant_reservations_held ON cp_tenant_reservations (tenant, month) WHERE actual IS NULL;
