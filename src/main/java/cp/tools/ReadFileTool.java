package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code read_file {path}}: the text of one file under the plane root, as the agent's
 * {@link PathPolicy} allows. Binary files are refused, large ones truncated with a note.
 */
public final class ReadFileTool implements Tool {
  public static final String ID = "read_file";

  /**
   * Bytes returned at most. HO1 cuts every tool result at 32,000 characters; staying below that
   * keeps the truncation note (and the model's knowledge that it saw only part) in the result.
   */
  public static final int MAX_BYTES = 24 * 1024;

  /** A NUL byte in this many leading bytes marks a file as binary (the heuristic git and grep use). */
  public static final int BINARY_PROBE_BYTES = 8 * 1024;

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    String requested = args.path("path").asText("");
    Path file = ctx.paths().resolveForRead(requested);
    String shown = PathPolicy.quote(requested);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return notFound(shown);
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return ToolResult.error(ToolErrorCodes.NOT_A_FILE, "'" + shown + "' is "
          + (Files.isDirectory(file) ? "a directory" : "not a regular file") + "; read_file reads one file, "
          + "give the path of a file");
    }
    try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = ch.size();
      byte[] head = readUpTo(ch, (int) Math.min(size, MAX_BYTES));
      if (hasNul(head, Math.min(head.length, BINARY_PROBE_BYTES))) {
        return ToolResult.error(ToolErrorCodes.NOT_TEXT, "'" + shown + "' is binary (it has NUL bytes in its "
            + "first " + BINARY_PROBE_BYTES + " bytes); read_file returns text files only");
      }
      if (size == 0) {
        return ToolResult.ok("[empty file: '" + shown + "' has 0 bytes]");
      }
      boolean truncated = size > head.length;
      int end = truncated ? utf8Boundary(head, head.length) : head.length;
      String text = new String(head, 0, end, StandardCharsets.UTF_8);
      return ToolResult.ok(truncated ? text + "\n[truncated: " + end + " of " + size + " bytes]" : text);
    } catch (NoSuchFileException e) {
      return notFound(shown);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read '" + shown + "' (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  private static ToolResult notFound(String shown) {
    return ToolResult.error(ToolErrorCodes.NOT_FOUND, "file '" + shown + "' not found under the plane root; "
        + "check the path (relative to the plane root, case-sensitive)");
  }

  private static byte[] readUpTo(SeekableByteChannel ch, int max) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(max);
    while (buf.hasRemaining() && ch.read(buf) > 0) {
      // keep reading until full or end of file
    }
    byte[] out = new byte[buf.position()];
    buf.flip().get(out);
    return out;
  }

  private static boolean hasNul(byte[] bytes, int probe) {
    for (int i = 0; i < probe; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** The largest length at most {@code len} that does not cut a UTF-8 sequence in two. */
  static int utf8Boundary(byte[] bytes, int len) {
    int i = len;
    // Step back over continuation bytes (10xxxxxx), at most the 3 a sequence can have.
    while (i > 0 && len - i < 3 && (bytes[i - 1] & 0xC0) == 0x80) {
      i--;
    }
    if (i > 0 && (bytes[i - 1] & 0x80) != 0) {
      int lead = bytes[i - 1] & 0xFF;
      int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
      if (len - (i - 1) < need) {
        return i - 1;
      }
    }
    return len;
  }
}
