package cp.faults;

import java.io.PrintStream;

/**
 * Makes the fault hook a {@code CP_FAULT_PAUSE} value asks for. Found with {@link
 * java.util.ServiceLoader}; only the test classpath provides one.
 */
public interface FaultHookFactory {
  /**
   * The hook for {@code value} (the variable's value, not blank), tracing to {@code out}.
   *
   * @throws IllegalArgumentException naming the variable when the value names no known point
   */
  FaultHook create(String value, PrintStream out);
}
