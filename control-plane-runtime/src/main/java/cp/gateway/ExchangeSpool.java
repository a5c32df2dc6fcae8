package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Paid answers whose EXCHANGE the HOT ledger could not take yet (its database was unreachable),
 * kept on local disk under their idempotency key until they are written.
 *
 * <p>A provider answer is money spent: when the EXCHANGE that records it cannot be written, the
 * gateway keeps the finished entry here ({@link #keep}), forced to disk, before it fails the
 * attempt. The retried attempt (same activity, same key) finds it ({@link #find}), writes it
 * and answers from it instead of asking the provider again; whatever is left (a turn that gave up
 * while the database was down) is written by the next successful round trip ({@link #pending}).
 * One file per key, {@code <sha256 of the key>.json}, written to a temporary name and renamed, so
 * a crash leaves the whole answer or none. The directory is {@value #DIRECTORY} inside the HOT
 * ledger directory, where neither {@code read_file} nor {@code write_file} reaches.
 *
 * <p>What it cannot do: an attempt retried on another host does not see this host's spool (it
 * asks the provider again, and both answers are recorded). Thread-safe: files are per key and
 * replaced atomically; two threads draining the same file write one entry (the ledger is
 * idempotent by key) and the second delete finds nothing.
 */
public final class ExchangeSpool {
  /** The directory name, inside the HOT ledger directory. */
  public static final String DIRECTORY = "spool";
  /** Metadata field a late-written EXCHANGE carries: when the answer was kept. */
  public static final String KEPT_AT = "recorded_late_kept_at";
  /** Metadata field a late-written EXCHANGE carries: why it could not be written at once. */
  public static final String KEPT_BECAUSE = "recorded_late_because";
  private static final Pattern FILE = Pattern.compile("[0-9a-f]{64}\\.json");

  private final Path dir;
  private final Clock clock;
  /** Whether files may be waiting: true at start (a previous process may have left some) and after each keep. */
  private final AtomicBoolean maybePending = new AtomicBoolean(true);

  public ExchangeSpool(Path dir, Clock clock) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The spool of the plane whose HOT ledger directory is {@code hotLedgerDirectory}. */
  public static ExchangeSpool in(Path hotLedgerDirectory, Clock clock) {
    return new ExchangeSpool(hotLedgerDirectory.resolve(DIRECTORY), clock);
  }

  public Path directory() {
    return dir;
  }

  /**
   * Keeps {@code entry} (which has its idempotency key) durably, noting when and why.
   *
   * @throws UncheckedIOException when the local disk refuses it too
   */
  public LedgerEntry keep(LedgerEntry entry, String because) {
    String key = Objects.requireNonNull(entry.idempotencyKey(), "a spooled entry needs its idempotency key");
    ObjectNode meta = entry.metadata();
    meta.put(KEPT_AT, clock.instant().toString());
    meta.put(KEPT_BECAUSE, because);
    LedgerEntry kept = entry.toBuilder().metadata(meta).build();
    byte[] bytes = Json.write(kept.toJson(false)).getBytes(StandardCharsets.UTF_8);
    try {
      Files.createDirectories(dir);
      Path temp = dir.resolve("." + UUID.randomUUID() + ".tmp");
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(bytes));
        ch.force(true);
      }
      try {
        Files.move(temp, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file(key), StandardCopyOption.REPLACE_EXISTING);
      }
      forceDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the unrecorded answer " + key + " in " + dir + ": "
          + e.getMessage(), e);
    }
    maybePending.set(true);
    return kept;
  }

  /** The entry kept under {@code key}, if any. */
  public Optional<LedgerEntry> find(String key) {
    if (key == null) {
      return Optional.empty();
    }
    return read(file(key));
  }

  /** Forgets the entry kept under {@code key} (it is in the ledger now). */
  public void forget(String key) {
    try {
      Files.deleteIfExists(file(key));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + file(key) + " (already in the ledger): " + e.getMessage(), e);
    }
  }

  /**
   * Every kept entry, oldest file name order aside (the order is not meaningful); empty at once
   * when nothing was kept since the last time this found none.
   */
  public List<LedgerEntry> pending() {
    if (!maybePending.get() || !Files.isDirectory(dir)) {
      maybePending.set(false);
      return List.of();
    }
    maybePending.set(false);
    List<LedgerEntry> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        if (FILE.matcher(f.getFileName().toString()).matches()) {
          read(f).ifPresent(out::add);
        }
      }
    } catch (IOException e) {
      maybePending.set(true);
      throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
    }
    if (!out.isEmpty()) {
      maybePending.set(true); // until they are written and forgotten
    }
    return out;
  }

  private Optional<LedgerEntry> read(Path f) {
    try {
      JsonNode n = Json.parse(Files.readString(f, StandardCharsets.UTF_8));
      return Optional.of(LedgerEntry.fromJson(n));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the kept answer " + f + ": " + e.getMessage(), e);
    }
  }

  private Path file(String key) {
    return dir.resolve(Json.sha256(key) + ".json");
  }

  /** Makes the rename durable (a directory entry is data too); not every platform allows it. */
  private void forceDirectory() {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Windows cannot open a directory; the file itself is forced.
    }
  }
}
