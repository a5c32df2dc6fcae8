#!/bin/sh
# One-shot for docker-compose.temporal.yml (temporalio/admin-tools image): registers the namespace
# the workers use (TEMPORAL_NAMESPACE, default "default") once the frontend answers.
set -eu
NS="${TEMPORAL_NAMESPACE:-default}"
ADDR="${TEMPORAL_ADDRESS:-temporal:7233}"
tries=0
until temporal operator cluster health --address "$ADDR" >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 30 ]; then
    echo "create-namespace: the Temporal frontend at $ADDR did not become healthy" >&2
    exit 1
  fi
  sleep 2
done
temporal operator namespace describe --namespace "$NS" --address "$ADDR" >/dev/null 2>&1 \
  || temporal operator namespace create --namespace "$NS" --address "$ADDR"
echo "create-namespace: namespace $NS is ready"
