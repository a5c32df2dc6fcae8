package cp.worker;

import cp.ledger.LedgerProblem;
import cp.ledger.Ledgers;
import io.grpc.health.v1.HealthCheckResponse;
import java.util.List;
import java.util.Optional;

/**
 * What a worker needs to do work, as {@link Readiness} checks: {@code temporal} (the service
 * answers its gRPC health check and this worker polls) and {@code ledger} (the HOT ledger could be
 * appended to now: the JSONL file is writable and its chain intact, or the PostgreSQL database
 * answers). HOT is the one every LLM call records its EXCHANGE in before the gateway sends it.
 */
public final class WorkerChecks {
  public static final String TEMPORAL = "temporal";
  public static final String LEDGER = "ledger";

  private WorkerChecks() {}

  public static List<Readiness.Check> of(TemporalConnection conn, PlaneWorker worker, Ledgers ledgers) {
    return List.of(Readiness.Check.of(TEMPORAL, () -> temporal(conn, worker)),
        Readiness.Check.of(LEDGER, () -> ledgers.hot().appendProblem().map(LedgerProblem::message)));
  }

  private static Optional<String> temporal(TemporalConnection conn, PlaneWorker worker) {
    if (!worker.polling()) {
      return Optional.of("the worker does not poll (stopped)");
    }
    HealthCheckResponse r = conn.service().healthCheck();
    return r.getStatus() == HealthCheckResponse.ServingStatus.SERVING ? Optional.empty()
        : Optional.of("the service at " + conn.target() + " reports " + r.getStatus());
  }
}
