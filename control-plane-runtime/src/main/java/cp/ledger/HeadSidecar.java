package cp.ledger;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The open {@code .head} sidecar of one JSONL ledger ({@link LedgerHead} is its format) and the
 * head this process last knew to be intact, which other ledgers' checkpoints read
 * ({@link HeadCheckpoint}).
 *
 * <p>Thread-safety: {@link #write}, {@link #reset} and {@link #close} are called by the owning
 * {@link Ledger} under its lock and file lock; {@link #published()} may be read from any thread
 * (a volatile field).
 */
final class HeadSidecar {
  private final Path ledger;
  /** The chain key the head's MAC is made with, or null. */
  private final ChainKey key;
  private FileChannel channel;
  private volatile LedgerHead published;

  private HeadSidecar(Path ledger, ChainKey key, FileChannel channel) {
    this.ledger = ledger;
    this.key = key;
    this.channel = channel;
  }

  static HeadSidecar open(Path ledger, ChainKey key) throws IOException {
    return new HeadSidecar(ledger, key, LedgerHead.open(ledger));
  }

  /** Records the acknowledged length and last hash on disk (with their MAC under a key), and publishes them. */
  void write(long entries, String lastHash) throws IOException {
    LedgerHead head = new LedgerHead(entries, lastHash,
        LedgerHead.macOf(key, ledger.getFileName().toString(), entries, lastHash));
    head.write(channel);
    published = head;
  }

  /** Publishes a head without writing it (it is on disk already). */
  void publish(long entries, String lastHash) {
    published = new LedgerHead(entries, lastHash);
  }

  LedgerHead published() {
    return published;
  }

  /** Deletes the sidecar and opens a new, empty one (a repair rewrites it from the kept lines). */
  void reset() throws IOException {
    Files.deleteIfExists(LedgerHead.pathFor(ledger));
    channel.close();
    channel = LedgerHead.open(ledger);
  }

  void close() throws IOException {
    channel.close();
  }
}
