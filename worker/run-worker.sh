#!/bin/sh
# Runs one Control Plane worker. TEMPORAL_ADDRESS must name the cluster's frontend.
set -eu
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  echo "run-worker: TEMPORAL_ADDRESS is not set (e.g. temporal:7233)" >&2
  exit 2
fi
# The image's class-data archive (issue 21: faster starts); JVM warnings on stderr. JAVA_OPTS come last.
JVM="-Xlog:disable -Xlog:all=warning:stderr -XX:SharedArchiveFile=/opt/cp/control-plane.jsa"
# CP_METRICS_PORT (issue 14): serve /metrics on that port, on every interface of the container so
# Prometheus on the compose network can scrape it (the container's port is not published).
if [ -n "${CP_METRICS_PORT:-}" ]; then
  exec java $JVM ${JAVA_OPTS:-} -jar /opt/cp/control-plane.jar worker --metrics-port "$CP_METRICS_PORT" --metrics-bind 0.0.0.0
fi
exec java $JVM ${JAVA_OPTS:-} -jar /opt/cp/control-plane.jar worker
