package cp.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test code: makes writes to chosen ledger files fail the way the kernel fails them, with its own
 * words: {@link #DISK_FULL} (ENOSPC) or {@link #NOT_PERMITTED} (EPERM, an immutable file). A real
 * full disk cannot be made in a test without root and a mount of its own (and {@code chattr +i}
 * needs CAP_LINUX_IMMUTABLE); everything after the failed write is the ledger's real path. A test
 * gives an instance to the store it opens ({@code LedgerHooks.withWrites}); nothing fails until it
 * calls {@link #fail}.
 */
public final class WriteFaults implements FileWriteHook {
  /** What the JDK reports for ENOSPC on Linux. */
  public static final String DISK_FULL = LedgerProblem.DISK_FULL;
  /** What the JDK reports for EPERM on Linux (a write to an immutable file). */
  public static final String NOT_PERMITTED = "Operation not permitted";
  private final Map<Path, String> failing = new ConcurrentHashMap<>();

  /** From now on, writes to {@code file} fail with an IOException saying {@code ioMessage}. */
  public void fail(Path file, String ioMessage) {
    failing.put(file.toAbsolutePath().normalize(), ioMessage);
  }

  /** Writes to {@code file} work again (space was freed, the flag removed). */
  public void clear(Path file) {
    failing.remove(file.toAbsolutePath().normalize());
  }

  @Override
  public void beforeWrite(Path file) throws IOException {
    String message = failing.get(file.toAbsolutePath().normalize());
    if (message != null) {
      throw new IOException(message);
    }
  }
}
