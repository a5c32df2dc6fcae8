#!/bin/sh
# Runs one Control Plane worker. TEMPORAL_ADDRESS must name the cluster's frontend.
# 'cpctl worker' reads CP_METRICS_PORT / CP_METRICS_BIND itself (/metrics, /healthz, /readyz) and
# CP_SHUTDOWN_GRACE_SECONDS (how long SIGTERM lets running activities finish). exec: java is the
# process that receives docker's SIGTERM.
set -eu
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  echo "run-worker: TEMPORAL_ADDRESS is not set (e.g. temporal:7233)" >&2
  exit 2
fi
# The image's class-data archive (issue 21: faster starts); JVM warnings on stderr. JAVA_OPTS come last.
JVM="-Xlog:disable -Xlog:all=warning:stderr -XX:SharedArchiveFile=/opt/cp/control-plane.jsa"
exec java $JVM ${JAVA_OPTS:-} -jar /opt/cp/control-plane.jar worker
