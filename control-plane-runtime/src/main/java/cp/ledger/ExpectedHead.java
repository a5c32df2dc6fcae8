package cp.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A head an operator pins ({@code cpctl ledger verify --expect-head STREAM=ENTRIES:HASH}, or
 * {@code STREAM=FILE} for a JSONL export): the stream must hold at least {@code entries} entries,
 * the {@code entries}-th with this hash. It is what catches a stream (or a whole store) that was
 * deleted or cut together with every head recorded of it, which nothing inside the store can.
 *
 * @param stream the stream
 * @param entries how many entries it held
 * @param hash the hash of its last entry then: all 64 hex digits, or at least the first
 *     {@link HeadCheckpoint#SHOWN_HASH_CHARS}
 * @param source where the head came from, for messages ({@code --expect-head hot=…})
 *
 * <p>Thread-safety: immutable.
 */
public record ExpectedHead(StreamId stream, long entries, String hash, String source) {
  private static final Pattern FORM = Pattern.compile("([a-z0-9]+(?:/[A-Za-z0-9_]+)?)=(\\d+):([0-9a-f]+)");
  /** The option, for messages. */
  public static final String OPTION = "--expect-head";

  public ExpectedHead {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(hash, "hash");
    if (entries < 1) {
      throw new IllegalArgumentException(OPTION + " " + source + ": a head counts at least 1 entry");
    }
  }

  /** What a mistyped ENTRIES:HASH looks like (a number, maybe a colon and more; or nothing), not a file name. */
  private static final java.util.regex.Pattern LOOKS_LIKE_A_HEAD = java.util.regex.Pattern.compile("\\d*(:.*)?");

  /**
   * Parses {@code STREAM=ENTRIES:HASH} ({@code hot=42:3fa9…}, {@code ho2/ADMIN=7:…}) or
   * {@code STREAM=FILE} (a file {@code cpctl ledger export} wrote: its line count and last hash).
   *
   * @throws IllegalArgumentException naming the option and what is wrong
   */
  public static ExpectedHead parse(String text) {
    String v = text == null ? "" : text.strip();
    Matcher m = FORM.matcher(v);
    String source = OPTION + " " + v;
    if (m.matches()) {
      String hash = m.group(3);
      if (hash.length() < HeadCheckpoint.SHOWN_HASH_CHARS || hash.length() > 64) {
        throw new IllegalArgumentException(source + ": the hash must have " + HeadCheckpoint.SHOWN_HASH_CHARS
            + " to 64 hex digits (what 'cpctl ledger export' prints)");
      }
      return new ExpectedHead(stream(m.group(1), source), Long.parseLong(m.group(2)), hash, source);
    }
    int eq = v.indexOf('=');
    if (eq > 0 && !LOOKS_LIKE_A_HEAD.matcher(v.substring(eq + 1)).matches()) {
      // Not ENTRIES:HASH, so STREAM=FILE: a file that is not there is named as such, not as a bad form.
      StreamId stream = stream(v.substring(0, eq), source);
      Path file;
      try {
        file = Path.of(v.substring(eq + 1));
      } catch (java.nio.file.InvalidPathException e) {
        throw new IllegalArgumentException(source + ": '" + v.substring(eq + 1) + "' is not a file name: "
            + e.getMessage());
      }
      if (Files.isRegularFile(file)) {
        return fromExport(stream, file, source);
      }
      throw new IllegalArgumentException(source + ": the file " + file + (Files.exists(file) ? " is not a regular file"
          : " does not exist") + " (STREAM=FILE names a file 'cpctl ledger export' wrote; or give"
          + " STREAM=ENTRIES:HASH as it prints)");
    }
    throw new IllegalArgumentException(source + ": expected STREAM=ENTRIES:HASH (e.g. hot=42:3fa9c0de12ab34cd…, as"
        + " 'cpctl ledger export' prints) or STREAM=FILE (a file it wrote)");
  }

  private static StreamId stream(String label, String source) {
    try {
      return StreamId.parse(label);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
  }

  private static ExpectedHead fromExport(StreamId id, Path file, String source) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ": cannot read " + file + ": " + e.getMessage());
    }
    if (lines.isEmpty()) {
      throw new IllegalArgumentException(source + ": " + file + " holds no entries");
    }
    String last = lines.get(lines.size() - 1);
    String hash;
    try {
      hash = cp.model.Json.parse(last).path("hash").asText("");
    } catch (RuntimeException e) {
      hash = "";
    }
    if (hash.isEmpty()) {
      throw new IllegalArgumentException(source + ": the last line of " + file + " is not a ledger entry");
    }
    return new ExpectedHead(id, lines.size(), hash, source);
  }

  /** {@code STREAM=ENTRIES:HASH}: what export prints and {@link #parse} reads. */
  public static String format(StreamId id, long entries, String hash) {
    return id.label() + "=" + entries + ":" + hash;
  }
}
