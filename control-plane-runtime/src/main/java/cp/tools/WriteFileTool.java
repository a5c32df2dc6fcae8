package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * {@code write_file {path, content, mode}}: writes one text file under the plane root
 * ({@code CP_HOME}), as the agent's {@link PathPolicy} write globs allow.
 *
 * <p>The path goes through the checks {@code read_file} uses (no {@code ..}, no absolute path, no
 * link out of the root, no prefix trick, secret names and forbidden globs refused) and is then
 * refused when it is, or resolves to, a ledger file ({@link PathPolicy#refuseLedgerFiles}). The
 * file is written atomically: the new content goes to a temporary file beside the target, is
 * forced to disk and renamed over the target ({@code renameat}), so a crash leaves the old file
 * or the new one, never half of one. Every open and the rename happen below a directory handle
 * reached without following links ({@link NoFollowOpen#inParent}), so a directory swapped for a
 * link after the check cannot redirect the write. Directories are not created.
 *
 * <p>Modes: {@code create} (the default) refuses an existing file, unless it already holds exactly
 * this content (a retried call whose earlier attempt wrote it: nothing is written again);
 * {@code overwrite} replaces the file; {@code append} adds to its end (creating it if missing).
 * A retried tool call whose TOOL_CALL is on record never reaches this tool (HO1 answers from the
 * ledger), so the only repeat left is a worker killed between the rename and that record; create
 * and overwrite are idempotent there, append would add twice (documented).
 */
public final class WriteFileTool implements Tool {
  public static final String ID = "write_file";

  /** The environment variable that limits {@code content}, in UTF-8 bytes. */
  public static final String MAX_BYTES_ENV = "CP_WRITE_FILE_MAX_BYTES";

  /**
   * Default limit of {@code content}: 256 KiB. The content arrives inside one model reply, which
   * is read up to {@code CP_HTTP_MAX_REPLY_BYTES} (512 KiB by default), and it is recorded in the
   * TOOL_CALL entry and in the workflow history (2 MiB per payload): half the reply leaves room.
   */
  public static final int DEFAULT_MAX_BYTES = 256 * 1024;

  /** The most {@value #MAX_BYTES_ENV} may say: a Temporal payload is refused above 2 MiB. */
  public static final int MAX_MAX_BYTES = 1024 * 1024;

  /** How many leading lines an approval summary shows. */
  public static final int SUMMARY_LINES = 3;

  /**
   * Lines a summary never shows: they name or look like credentials (key words, a PEM private key,
   * provider key prefixes such as Anthropic/OpenAI {@code sk-}, AWS {@code AKIA}, GitHub {@code ghp_}).
   * The summary goes to a person, the ledger and the workflow history, where no secret may be.
   */
  static final java.util.regex.Pattern SECRET_LIKE = java.util.regex.Pattern.compile(
      "(?i)(api[_-]?key|secret|passw(or)?d|token|credential|PRIVATE KEY|\\bsk-[A-Za-z0-9_-]{8,}|\\bAKIA[0-9A-Z]{12,}"
          + "|\\bgh[pousr]_[A-Za-z0-9]{12,})");

  /** Characters of each summary line shown at most. */
  static final int SUMMARY_LINE_CHARS = 120;

  /** The write modes, as the {@code mode} argument names them. */
  public enum Mode {
    CREATE, OVERWRITE, APPEND;

    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Mode> of(String s) {
      return Arrays.stream(values()).filter(m -> m.wire().equals(s)).findFirst();
    }
  }

  private static final Set<OpenOption> READ_NO_FOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  private static final Set<OpenOption> CREATE_NEW_NO_FOLLOW = Set.of(StandardOpenOption.WRITE,
      StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);

  private final int maxBytes;

  public WriteFileTool(int maxBytes) {
    if (maxBytes < 1 || maxBytes > MAX_MAX_BYTES) {
      throw new IllegalArgumentException(MAX_BYTES_ENV + " must be between 1 and " + MAX_MAX_BYTES + ", got "
          + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /**
   * The tool with the limit {@value #MAX_BYTES_ENV} sets, else {@link #DEFAULT_MAX_BYTES}.
   *
   * @throws IllegalArgumentException naming the variable when its value is not a number in range
   */
  public static WriteFileTool fromEnvironment(Map<String, String> env) {
    String v = env.get(MAX_BYTES_ENV);
    if (v == null || v.isBlank()) {
      return new WriteFileTool(DEFAULT_MAX_BYTES);
    }
    try {
      return new WriteFileTool(Integer.parseInt(v.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(MAX_BYTES_ENV + " must be a whole number of bytes between 1 and "
          + MAX_MAX_BYTES + ", got '" + BoundedText.quote(v, 40) + "'");
    }
  }

  public int maxBytes() {
    return maxBytes;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    String requested = args.path("path").asText("");
    String content = args.path("content").asText("");
    String modeArg = args.path("mode").asText(Mode.CREATE.wire());
    Optional<Mode> mode = Mode.of(modeArg);
    if (mode.isEmpty()) {
      return ToolResult.refused(ToolErrorCodes.INVALID_ARGUMENTS, "write_file mode '" + BoundedText.quote(modeArg, 40)
          + "' is not one of create, overwrite, append");
    }
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > maxBytes) {
      return ToolResult.refused(ToolErrorCodes.TOO_LARGE, "content of " + bytes.length + " bytes is over write_file's"
          + " limit of " + maxBytes + " bytes (" + MAX_BYTES_ENV + "); nothing was written. Write less, or in parts"
          + " with mode append");
    }
    PathPolicy.Checked checked = ctx.paths().checkFile(requested, ctx.layout(), true);
    String shown = PathPolicy.quote(requested);
    Optional<ToolResult> result;
    try {
      result = NoFollowOpen.inParent(checked.realRoot(), checked.realRelative(),
          (refusal, why) -> ctx.paths().refuseWrite(refusal, requested, why),
          (dir, name, existing) -> write(dir, name, existing, bytes, mode.get(), shown));
    } catch (IOException e) {
      throw FileIo.failed("write", shown, e);
    }
    return result.orElseGet(() -> ToolResult.error(ToolErrorCodes.NOT_FOUND, "the directory of '" + shown + "' ("
        + PathPolicy.RELATIVE_TO + ") does not exist; write_file does not create directories, write into one that"
        + " exists"));
  }

  private static ToolResult write(SecureDirectoryStream<Path> dir, Path name, BasicFileAttributes existing,
      byte[] bytes, Mode mode, String shown) throws IOException {
    if (existing != null && !existing.isRegularFile()) {
      return ToolResult.error(ToolErrorCodes.NOT_A_FILE, "'" + shown + "' (" + PathPolicy.RELATIVE_TO + ") is "
          + (existing.isDirectory() ? "a directory" : "not a regular file") + "; write_file writes one file");
    }
    byte[] old = existing == null ? null : readAll(dir, name);
    if (mode == Mode.CREATE && old != null) {
      if (Arrays.equals(old, bytes)) {
        return ToolResult.ok("'" + shown + "' already holds exactly this content (" + bytes.length + " bytes); "
            + "nothing was written");
      }
      return ToolResult.error(ToolErrorCodes.FILE_EXISTS, "'" + shown + "' (" + PathPolicy.RELATIVE_TO + ") already "
          + "exists with other content; nothing was written. Use mode overwrite to replace it or append to add to it");
    }
    byte[] next = bytes;
    if (mode == Mode.APPEND && old != null) {
      next = Arrays.copyOf(old, old.length + bytes.length);
      System.arraycopy(bytes, 0, next, old.length, bytes.length);
    }
    Path temp = name.getFileSystem().getPath("." + name + ".tmp-" + UUID.randomUUID());
    try {
      try (SeekableByteChannel ch = dir.newByteChannel(temp, CREATE_NEW_NO_FOLLOW)) {
        ByteBuffer buf = ByteBuffer.wrap(next);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        if (ch instanceof FileChannel fc) {
          fc.force(true);
        }
      }
      dir.move(temp, dir, name);
    } catch (IOException | RuntimeException e) {
      try {
        dir.deleteFile(temp);
      } catch (IOException | RuntimeException ignored) {
        // nothing left to clean, or it cannot be: the original failure is what matters
      }
      throw e;
    }
    String what = old == null ? "created" : mode == Mode.APPEND ? "appended to" : "overwrote";
    return ToolResult.ok(what + " '" + shown + "': " + (mode == Mode.APPEND && old != null
        ? bytes.length + " bytes added, now " + next.length + " bytes" : next.length + " bytes") + " ("
        + lines(new String(next, StandardCharsets.UTF_8)) + " lines)");
  }

  private static byte[] readAll(SecureDirectoryStream<Path> dir, Path name) throws IOException {
    try (SeekableByteChannel ch = dir.newByteChannel(name, READ_NO_FOLLOW)) {
      long size = ch.size();
      if (size > MAX_MAX_BYTES * 4L) {
        throw new IOException("the existing file has " + size + " bytes, more than write_file handles");
      }
      return FileIo.readUpTo(ch, (int) size);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The number of lines of {@code text} (a last line without a newline counts; "" has 0). */
  public static int lines(String text) {
    if (text.isEmpty()) {
      return 0;
    }
    int n = (int) text.chars().filter(c -> c == '\n').count();
    return text.endsWith("\n") ? n : n + 1;
  }

  /**
   * What a person deciding whether to allow a call needs, without the whole content: the path, the
   * mode (unless create), the size in bytes and lines and the first {@value #SUMMARY_LINES} lines, each bounded and
   * with control characters escaped. Pure: no file is read.
   */
  public static String summary(JsonNode args) {
    String path = BoundedText.quote(args.path("path").asText(""), PathPolicy.MAX_QUOTED_PATH_CHARS);
    String content = args.path("content").asText("");
    String mode = args.path("mode").asText(Mode.CREATE.wire());
    int bytes = content.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder sb = new StringBuilder(path).append(" (").append(bytes).append(" bytes, ").append(lines(content))
        .append(lines(content) == 1 ? " line" : " lines")
        .append(Mode.CREATE.wire().equals(mode) ? "" : ", mode " + BoundedText.quote(mode, 20)).append(")");
    String[] first = content.split("\n", SUMMARY_LINES + 1);
    for (int i = 0; i < Math.min(SUMMARY_LINES, first.length); i++) {
      if (i == first.length - 1 && first[i].isEmpty()) {
        break;
      }
      sb.append("\n  | ").append(SECRET_LIKE.matcher(first[i]).find() ? "[line hidden: it looks like a secret]"
          : BoundedText.quote(first[i], SUMMARY_LINE_CHARS));
    }
    if (lines(content) > SUMMARY_LINES) {
      sb.append("\n  | …");
    }
    return sb.toString();
  }
}
