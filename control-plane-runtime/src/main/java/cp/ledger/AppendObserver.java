package cp.ledger;

/**
 * What a ledger store tells about each append it made (the append-latency metric, issue 14). The
 * store is given one through its options ({@link LedgerHooks}); the product's observer forwards
 * to its telemetry, the default does nothing.
 *
 * <p>Thread safety: implementations are called from any appending thread, after the append, with
 * no ledger lock held; they must be thread-safe and quick.
 */
@FunctionalInterface
public interface AppendObserver {
  /** Observes nothing. */
  AppendObserver NONE = (tier, store, nanos) -> { };

  /**
   * One append finished.
   *
   * @param tier the stream's tier in lower case ({@code hot}, {@code ho2}, ...; {@code other} for a file outside a plane)
   * @param store {@code file} or {@code postgresql}
   * @param nanos how long the append took, including its durability wait
   */
  void appended(String tier, String store, long nanos);
}
