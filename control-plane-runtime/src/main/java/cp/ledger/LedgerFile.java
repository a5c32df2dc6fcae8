package cp.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The segment file of a JSONL ledger: positional reads and writes, truncation, fsync and the
 * inter-process file lock, and nothing about what the bytes mean.
 *
 * <p>Thread-safety: positional reads and {@link #force} may run from any thread (FileChannel
 * allows them concurrently); writes and truncation are made by the {@link Ledger} that owns the
 * file, under its lock and this file's {@link #lock()}, one at a time. The channel is
 * interruptible: a caller whose thread's interrupt flag is set must set the flag aside first
 * (an interrupted I/O call closes the channel for every thread of the process).
 */
final class LedgerFile implements AutoCloseable {
  private final FileChannel channel;

  private LedgerFile(FileChannel channel) {
    this.channel = channel;
  }

  /** Opens, creating the file and its directories if needed, for reading and writing. */
  static LedgerFile open(Path path) throws IOException {
    Files.createDirectories(path.getParent());
    return new LedgerFile(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE));
  }

  /** Opens an existing file for reading only (verify: nothing is created or written). */
  static LedgerFile openReadOnly(Path path) throws IOException {
    return new LedgerFile(FileChannel.open(path, StandardOpenOption.READ));
  }

  /** A shared lock: writers (who take the exclusive one) wait while it is held; blocks until it is held. */
  FileLock lockShared() throws IOException {
    return channel.lock(0, Long.MAX_VALUE, true);
  }

  /** The exclusive lock other processes respect; blocks until it is held. */
  FileLock lock() throws IOException {
    return channel.lock();
  }

  long size() throws IOException {
    return channel.size();
  }

  /** One positional read into {@code buf}: the bytes read, or -1 at the end of the file. */
  int read(ByteBuffer buf, long at) throws IOException {
    return channel.read(buf, at);
  }

  /**
   * Reads from {@code at} until {@code buf} is full or the file ends; the caller decides what a
   * short read (a buffer with room left) means.
   */
  void readFully(ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        break;
      }
      pos += n;
    }
  }

  /** Exactly {@code length} bytes from {@code at}; an {@link IOException} when the file ends first. */
  byte[] readExactly(long at, int length) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(length);
    readFully(buf, at);
    if (buf.hasRemaining()) {
      throw new IOException("unexpected end of file at offset " + (at + buf.position()));
    }
    return buf.array();
  }

  /** Writes all of {@code bytes} at {@code at}. */
  void write(byte[] bytes, long at) throws IOException {
    writeFully(channel, bytes, at);
  }

  void truncate(long size) throws IOException {
    channel.truncate(size);
  }

  /** Forces written bytes to disk; with {@code metadata} the file's metadata (its size) too. */
  void force(boolean metadata) throws IOException {
    channel.force(metadata);
  }

  boolean isOpen() {
    return channel.isOpen();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** Writes all of {@code bytes} at {@code at} (a positional write may write only part). */
  static void writeFully(FileChannel channel, byte[] bytes, long at) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    long pos = at;
    while (buf.hasRemaining()) {
      pos += channel.write(buf, pos);
    }
  }
}
