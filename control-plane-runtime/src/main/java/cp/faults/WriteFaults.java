package cp.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test-only: makes writes to chosen ledger files fail the way the kernel fails them, with its own
 * words: {@link #DISK_FULL} (ENOSPC) or {@link #NOT_PERMITTED} (EPERM, an immutable file). A real
 * full disk cannot be made in a test without root and a mount of its own (and {@code chattr +i}
 * needs CAP_LINUX_IMMUTABLE); everything after the failed write is the ledger's real path. The
 * ledger consults this before each append and when it checks whether it could append. Nothing
 * fails unless a test calls {@link #fail}; until then every check is one empty-map test.
 */
public final class WriteFaults {
  /** What the JDK reports for ENOSPC on Linux. */
  public static final String DISK_FULL = "No space left on device";
  /** What the JDK reports for EPERM on Linux (a write to an immutable file). */
  public static final String NOT_PERMITTED = "Operation not permitted";
  private static final Map<Path, String> FAILING = new ConcurrentHashMap<>();

  private WriteFaults() {}

  /** From now on, writes to {@code file} fail with an IOException saying {@code ioMessage}. */
  public static void fail(Path file, String ioMessage) {
    FAILING.put(file.toAbsolutePath().normalize(), ioMessage);
  }

  /** Writes to {@code file} work again (space was freed, the flag removed). */
  public static void clear(Path file) {
    FAILING.remove(file.toAbsolutePath().normalize());
  }

  /** Throws what the marked fault throws when {@code file} is marked; called by the ledger before it writes. */
  public static void check(Path file) throws IOException {
    if (!FAILING.isEmpty()) {
      String message = FAILING.get(file);
      if (message != null) {
        throw new IOException(message);
      }
    }
  }
}
