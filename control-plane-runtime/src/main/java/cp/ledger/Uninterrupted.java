package cp.ledger;

import java.util.function.Supplier;

/**
 * Runs ledger I/O with the calling thread's interrupt flag set aside, and restores it after.
 *
 * <p>A {@code FileChannel} is interruptible: I/O on a thread whose interrupt flag is set (an
 * activity thread of a worker stopped with {@code shutdownNow}, chat's Ctrl-C) closes the channel
 * for every thread of the process, and a connection pool refuses such a thread a connection. An
 * entry the caller asked for is still written; the caller sees its interrupt afterwards.
 */
final class Uninterrupted {
  private Uninterrupted() {}

  static <T> T call(Supplier<T> io) {
    boolean interrupted = Thread.interrupted();
    try {
      return io.get();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
