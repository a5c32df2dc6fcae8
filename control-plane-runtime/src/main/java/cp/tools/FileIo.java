package cp.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;

/**
 * What read_file and write_file share below the path checks: reading a channel into bytes, and
 * saying why an I/O operation failed in words the model can act on (never a Java class name or
 * an absolute path of the worker's disk). Stateless.
 */
final class FileIo {
  private FileIo() {}

  /** At most {@code max} bytes from the channel's position on, fewer at its end. */
  static byte[] readUpTo(SeekableByteChannel ch, int max) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(max);
    while (buf.hasRemaining() && ch.read(buf) > 0) {
      // keep reading until full or end of file
    }
    return Arrays.copyOf(buf.array(), buf.position());
  }

  /**
   * The failure of {@code verb} ("open", "read", "write") on the file the agent named {@code
   * shown}, as a {@link ToolException} the model reads.
   */
  static ToolException failed(String verb, String shown, IOException e) {
    return new ToolException("cannot " + verb + " '" + shown + "' (" + PathPolicy.RELATIVE_TO + "): " + reason(e), e);
  }

  /** Why, in plain words: permission denied, no such file, the file system's own reason, or an I/O error. */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason().toLowerCase(java.util.Locale.ROOT);
    }
    return "an I/O error";
  }
}
