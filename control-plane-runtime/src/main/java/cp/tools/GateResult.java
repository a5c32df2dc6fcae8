package cp.tools;

import java.util.Objects;

/**
 * The outcome of one integrity gate.
 *
 * @param id the gate id, e.g. {@code G-CATALOG} or {@code G-LEDGER-HO2-ADMIN}
 * @param detail what was checked and, on failure, what is wrong and where
 */
public record GateResult(String id, boolean passed, String detail) {
  public GateResult {
    Objects.requireNonNull(id, "id");
    detail = detail == null ? "" : detail;
  }

  public static GateResult pass(String id, String detail) {
    return new GateResult(id, true, detail);
  }

  public static GateResult fail(String id, String detail) {
    return new GateResult(id, false, detail);
  }

  /** {@code PASS <id>: <detail>} or {@code FAIL <id>: <detail>}. */
  public String line() {
    return (passed ? "PASS " : "FAIL ") + id + ": " + detail;
  }
}
