-- Issue 23: the tenants' dollar counters, shared by every worker on every host.
-- One row per call (keyed by its idempotency key): its reservation, then what it cost.
CREATE TABLE IF NOT EXISTS cp_tenant_reservations (
  call_key    text PRIMARY KEY,
  tenant      text NOT NULL,
  day         text NOT NULL,
  month       text NOT NULL,
  amount      numeric NOT NULL,
  expires_at  timestamptz NOT NULL,
  actual      numeric,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS cp_tenant_reservations_month ON cp_tenant_reservations (tenant, month);
-- One row per tenant: the lock a reservation takes, so that two workers deciding for one tenant
-- decide one after the other (SELECT ... FOR UPDATE).
CREATE TABLE IF NOT EXISTS cp_tenants (
  tenant text PRIMARY KEY
);
