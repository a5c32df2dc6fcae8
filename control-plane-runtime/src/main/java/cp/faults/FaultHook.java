package cp.faults;

/**
 * Where a test may stop this process at a named point (see {@link FaultPoints} for the points).
 * The product calls it through {@link FaultPoints}; its default does nothing, and a production
 * build has no other: the implementation that reads {@code CP_FAULT_PAUSE}, prints
 * {@code cp-fault:} lines and pauses lives with the tests that use it, found through {@link
 * FaultHookFactory} on the test classpath.
 */
public interface FaultHook {
  /** The product's hook: nothing happens at any point. */
  FaultHook NONE = new FaultHook() { };

  /** Passes a point; may pause the calling thread for good. */
  default void at(String point) {
  }

  /**
   * Whether the caller should set up the fault at this point (for example write half a line) and
   * then call {@link #pause}.
   */
  default boolean armed(String point) {
    return false;
  }

  /** Stops the calling thread at {@code point} (a test then kills the process). */
  default void pause(String point) {
  }
}
