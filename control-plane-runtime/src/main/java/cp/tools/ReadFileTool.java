package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.PlaneLayout;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * {@code read_file {path}}: the text of one file under the plane root ({@code CP_HOME}), as the
 * agent's {@link PathPolicy} allows. Binary files are refused, large ones truncated with a note.
 *
 * <p>Ledgers are never read here, by any agent: every file in a tier's ledger directory
 * ({@link PlaneLayout#ledgerDirectory}: the ledger, its {@code .head}, {@code .torn-*} and
 * {@code .quarantine-*} files) is refused, as requested and as resolved through links. Ledgers
 * hold every session's prompts and answers; {@code query_ledger} reads them, limited to what the
 * agent may see (its own session unless its config says otherwise). The file is opened by
 * {@link NoFollowOpen}, following no link, so a directory swapped for a link after the check
 * cannot redirect the read.
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
    PathPolicy.Checked checked = ctx.paths().checkFile(requested, ctx.layout(), false);
    String shown = PathPolicy.quote(requested);
    NoFollowOpen.Opened opened;
    try {
      opened = NoFollowOpen.open(checked.realRoot(), checked.realRelative(),
          (refusal, why) -> ctx.paths().refuseRead(refusal, requested, why));
    } catch (IOException e) {
      throw FileIo.failed("open", shown, e);
    }
    if (opened instanceof NoFollowOpen.Missing) {
      return notFound(shown);
    }
    if (opened instanceof NoFollowOpen.NotAFile n) {
      return ToolResult.error(ToolErrorCodes.NOT_A_FILE, "'" + shown + "' (" + PathPolicy.RELATIVE_TO + ") is "
          + n.what() + "; read_file reads one file, give the path of a file");
    }
    NoFollowOpen.File file = (NoFollowOpen.File) opened;
    try (SeekableByteChannel ch = file.channel()) {
      long size = file.size();
      byte[] head = FileIo.readUpTo(ch, (int) Math.min(size, MAX_BYTES));
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
    } catch (IOException e) {
      throw FileIo.failed("read", shown, e);
    }
  }

  private static ToolResult notFound(String shown) {
    return ToolResult.error(ToolErrorCodes.NOT_FOUND, "file '" + shown + "' not found: paths are "
        + PathPolicy.RELATIVE_TO + " (its README.md and the tier directories HOT/, HO3/, HO2/, HO1/), not the "
        + "project or the current directory; check the path (case-sensitive)");
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
