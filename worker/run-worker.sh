#!/bin/sh
# Runs one Control Plane worker. TEMPORAL_ADDRESS must name the cluster's frontend.
set -eu
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  echo "run-worker: TEMPORAL_ADDRESS is not set (e.g. temporal:7233)" >&2
  exit 2
fi
exec java ${JAVA_OPTS:-} -jar /opt/cp/control-plane.jar worker
