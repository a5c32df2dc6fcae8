package cp.worker;

import cp.faults.FaultHook;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import java.util.Objects;

/**
 * What a plane process passes to everything that reports or may be stopped (issue 21: no
 * process-wide state): its {@link Telemetry} (spans, metrics) and its {@link FaultHook} (a crash
 * test's stop points; {@link FaultHook#NONE} in production) and its {@link SecretMasker}, the one
 * its ledgers, spans and logs share (null: the runtime makes one from its configuration).
 */
public record ProcessServices(Telemetry telemetry, FaultHook faults, SecretMasker masker) {
  /** No spans, no metrics, no fault points: tests and commands that only read. */
  public static final ProcessServices NONE = new ProcessServices(Telemetry.NOOP, FaultHook.NONE, null);

  public ProcessServices {
    Objects.requireNonNull(telemetry, "telemetry");
    Objects.requireNonNull(faults, "faults");
  }

  public static ProcessServices of(Telemetry telemetry) {
    return new ProcessServices(telemetry, FaultHook.NONE, null);
  }
}
