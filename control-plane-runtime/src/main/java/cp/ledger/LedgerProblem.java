package cp.ledger;

import cp.model.FailureCode;
import cp.model.RootCause;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a ledger cannot take appends, in the words a user and an operator act on: which ledger,
 * what is wrong, what to do. One vocabulary for the gateway (which checks before it pays for a
 * call), the activities (which turn a refused write into a Temporal failure) and the log.
 *
 * <ul>
 *   <li>{@link Kind#CORRUPT}: the hash chain is broken; appends are refused until
 *       {@code cpctl ledger repair}. No retry can help.
 *   <li>{@link Kind#KEY}: the chain is keyed and {@code CP_LEDGER_HMAC_KEY} is missing or another
 *       key: nothing is broken, and no repair helps; the process needs the ledger's key.
 *   <li>{@link Kind#DENIED}: the file system refuses the write (an immutable or read-only file,
 *       a read-only mount, no permission). No retry can help until someone changes that.
 *   <li>{@link Kind#FULL}: the disk (or quota) is full. Transient: freeing space fixes it, so a
 *       bounded retry is worth it.
 *   <li>{@link Kind#UNREACHABLE}: the ledger database does not answer. Transient: a retry once it
 *       is back succeeds (every append is idempotent).
 * </ul>
 */
public record LedgerProblem(Kind kind, Path file, String reason) {
  /** Failure type (Temporal) and error code of a ledger that refuses appends for good (until repaired). */
  public static final String UNWRITABLE = FailureCode.LEDGER_UNWRITABLE.wire();
  /** Failure type (Temporal) of a ledger on a full disk: retried, with backoff. */
  public static final String FULL_TYPE = FailureCode.LEDGER_FULL.wire();

  /** Failure type (Temporal) of a ledger database that does not answer: retried, with backoff. */
  public static final String UNAVAILABLE_TYPE = FailureCode.LEDGER_UNAVAILABLE.wire();
  /** What the JDK reports for ENOSPC on Linux: a full disk, in the kernel's words. */
  public static final String DISK_FULL = "No space left on device";
  /**
   * How long {@link LedgerStream#writable()} waits for a database to answer: long enough for a
   * loaded server on a LAN, short against an LLM call's seconds, so a caller about to pay learns of
   * a lost database before it sends.
   */
  public static final java.time.Duration PROBE_TIMEOUT = java.time.Duration.ofSeconds(2);

  public enum Kind { CORRUPT, KEY, DENIED, FULL, UNREACHABLE }

  /** Whether a later attempt may succeed without anyone fixing anything by hand. */
  public boolean transientProblem() {
    return failureCode().retryable();
  }

  /** {@link FailureCode#LEDGER_FULL} for a full disk, else {@link FailureCode#LEDGER_UNWRITABLE}. */
  public FailureCode failureCode() {
    return switch (kind) {
      case FULL -> FailureCode.LEDGER_FULL;
      case UNREACHABLE -> FailureCode.LEDGER_UNAVAILABLE;
      default -> FailureCode.LEDGER_UNWRITABLE;
    };
  }

  /** The Temporal failure type: {@link #FULL_TYPE} for a full disk, else {@link #UNWRITABLE}. */
  public String failureType() {
    return failureCode().wire();
  }

  /** One line: which ledger, what is wrong, and what to run or do about it. */
  public String message() {
    String what = label(file) + " cannot be written: ";
    return switch (kind) {
      case CORRUPT -> what + reason + "; run 'cpctl ledger verify' and 'cpctl ledger repair --tier "
          + tierOption(file) + "'";
      case KEY -> what + reason + "; start this process with the CP_LEDGER_HMAC_KEY the ledger was written with"
          + " ('cpctl ledger verify' names the key id it expects)";
      case FULL -> what + "disk full (" + reason + "); free space on the disk that holds it, then try again";
      case UNREACHABLE -> what + "the ledger database does not answer (" + reason + "); nothing is sent that"
          + " could not be recorded, and the work is retried once the database is back";
      case DENIED -> what + reason + " (the file or its file system refuses writes: check the file's permissions,"
          + " 'lsattr' for the immutable flag, and whether the disk is mounted read-only), then run 'cpctl ledger"
          + " verify'";
    };
  }

  /**
   * The problem a refused append ({@code failure} or one of its causes) shows, or empty when it is
   * not one (an unclassified I/O error, a bug).
   */
  public static Optional<LedgerProblem> of(Throwable failure) {
    return RootCause.first(failure, LedgerUnwritableException.class).map(LedgerUnwritableException::problem);
  }

  static LedgerProblem corrupt(Path file, VerifyResult broken) {
    if (broken.keyProblem()) {
      return new LedgerProblem(Kind.KEY, file, broken.reason());
    }
    return new LedgerProblem(Kind.CORRUPT, file, "its hash chain is broken at line " + broken.firstBadLine() + " ("
        + broken.reason() + ")");
  }

  /** A full disk or a refusing file system, from an I/O error's message; empty for any other I/O error. */
  static Optional<LedgerProblem> ofIo(Path file, IOException e) {
    String why = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : e.getMessage();
    if (why == null) {
      return Optional.empty();
    }
    String lower = why.toLowerCase(Locale.ROOT);
    if (lower.contains("no space left") || lower.contains("quota exceeded")) {
      return Optional.of(new LedgerProblem(Kind.FULL, file, why));
    }
    if (lower.contains("operation not permitted") || lower.contains("permission denied")
        || lower.contains("read-only file system") || e instanceof AccessDeniedException) {
      return Optional.of(new LedgerProblem(Kind.DENIED, file, why));
    }
    return Optional.empty();
  }

  /** "HOT ledger HOT/ledger/governance.jsonl", "HO2 ledger HO2/ledger/ADMIN/workorder.jsonl", or the path. */
  static String label(Path file) {
    int n = file.getNameCount();
    for (int i = 0; i < n - 1; i++) {
      String seg = file.getName(i).toString();
      if (isTier(seg) && "ledger".equals(file.getName(i + 1).toString())) {
        return seg + " ledger " + file.subpath(i, n).toString().replace('\\', '/');
      }
    }
    return "ledger " + file;
  }

  /** The {@code --tier} (and {@code --agent-class}) options that name this file to {@code cpctl ledger repair}. */
  static String tierOption(Path file) {
    int n = file.getNameCount();
    for (int i = 0; i < n - 1; i++) {
      String seg = file.getName(i).toString();
      if (isTier(seg) && "ledger".equals(file.getName(i + 1).toString())) {
        String tier = seg.toLowerCase(Locale.ROOT);
        return "HO2".equals(seg) && i + 2 < n - 1 ? tier + " --agent-class " + file.getName(i + 2) : tier;
      }
    }
    return "<tier>";
  }

  private static boolean isTier(String seg) {
    for (Tier t : Tier.values()) {
      if (t.name().equals(seg)) {
        return true;
      }
    }
    return false;
  }
}
