package cp.ledger;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Consulted by the JSONL store before it writes to a ledger file and when it probes whether it
 * could: a test implementation makes chosen files fail the way the kernel fails them (a full disk,
 * an immutable file), which a test cannot do for real without root and a mount of its own. The
 * product's is {@link #NONE}.
 *
 * <p>Thread safety: called from any appending thread, under the ledger's lock; implementations
 * must be thread-safe.
 */
@FunctionalInterface
public interface FileWriteHook {
  /** Never refuses. */
  FileWriteHook NONE = file -> { };

  /**
   * Throws what the file system would throw for a write to {@code file} now, or returns.
   *
   * @param file the ledger file, absolute and normalised
   */
  void beforeWrite(Path file) throws IOException;
}
