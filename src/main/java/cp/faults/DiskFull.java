package cp.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test-only: makes appends to chosen ledger files fail as a full disk does, with the kernel's own
 * words ({@code IOException: No space left on device}). A real full disk cannot be made in a unit
 * test without root and a mount of its own; the ledger's failure path after the write is the real
 * one. Nothing is full unless a test calls {@link #fill}; then every check is one set lookup.
 */
public final class DiskFull {
  /** What the JDK reports for ENOSPC on Linux. */
  public static final String MESSAGE = "No space left on device";
  private static final Set<Path> FULL = ConcurrentHashMap.newKeySet();

  private DiskFull() {}

  /** From now on, appends to {@code file} fail as if its disk were full. */
  public static void fill(Path file) {
    FULL.add(file.toAbsolutePath().normalize());
  }

  /** Appends to {@code file} work again (space was freed). */
  public static void free(Path file) {
    FULL.remove(file.toAbsolutePath().normalize());
  }

  /** Throws what a full disk throws when {@code file} is marked full; called by the ledger before it writes. */
  public static void check(Path file) throws IOException {
    if (!FULL.isEmpty() && FULL.contains(file)) {
      throw new IOException(MESSAGE);
    }
  }
}
