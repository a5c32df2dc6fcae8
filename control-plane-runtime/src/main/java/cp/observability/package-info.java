/**
 * Observability (issue 14): the process's {@link cp.observability.Telemetry} (OpenTelemetry traces
 * configured by the standard {@code OTEL_*} variables, Micrometer metrics for Prometheus), the
 * plane's metric names ({@link cp.observability.PlaneMetrics}) and span conventions
 * ({@link cp.observability.PlaneSpans}: the GenAI semantic conventions plus our ids and the ledger
 * entry each span's work wrote).
 *
 * <p>Off at no cost by default: with no {@code OTEL_*} variable the tracer is OpenTelemetry's
 * no-op and no SDK is built; without {@code --metrics-port} no meter registry is.
 */
package cp.observability;
