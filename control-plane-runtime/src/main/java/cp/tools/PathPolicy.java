package cp.tools;

import cp.contracts.AgentConfig;
import cp.contracts.Permissions;
import cp.ledger.PlaneLayout;
import cp.ledger.Tier;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which files under the plane root one agent's tools may read and write.
 *
 * <p>A requested path is relative to the plane root. It is refused when it is empty, holds a
 * NUL, is absolute, has a {@code ..} segment, leaves the root once normalized, or leads outside
 * the root once every symbolic link on the way is resolved (for the file and each parent, by
 * real paths, never by string prefixes: {@code /plane-root-evil} is not inside
 * {@code /plane-root}). It is then checked against the agent's {@link Permissions} globs twice:
 * as requested and as resolved, so a link inside the root cannot reach a forbidden file either.
 * Secret files ({@link SecretFileNames}, any letter case) are refused whatever the globs say. These
 * are the escapes of CVE-2025-53109/53110 (symlink and prefix tricks in a file-server tool).
 *
 * <p>A check alone leaves a window: a directory swapped for a link between the check and the open.
 * So read_file opens what {@link #checkRead} returns with {@link NoFollowOpen}, from the real
 * root's directory handle down, following no link at all; a link that appeared since the check is
 * refused ({@link PathRefusal#CHANGED}) instead of followed.
 */
public final class PathPolicy {
  /** How messages say where paths start; the host path of the root is not shown to the model. */
  public static final String RELATIVE_TO = "relative to the plane root, CP_HOME";

  /** Requested paths are quoted in messages up to this length, so a huge argument cannot flood one. */
  static final int MAX_QUOTED_PATH_CHARS = 200;

  private static final Pattern SEPARATORS = Pattern.compile("[/\\\\]+");
  private static final Pattern DRIVE_LETTER = Pattern.compile("^[A-Za-z]:.*");

  /** Read or write: which globs apply and how messages name them. */
  enum Access {
    READ("read", "Readable"),
    WRITE("write", "Writable");

    final String verb;
    final String listLabel;

    Access(String verb, String listLabel) {
      this.verb = verb;
      this.listLabel = listLabel;
    }
  }

  private final String agentClass;
  private final Path root;
  private final List<PathGlob> read;
  private final List<PathGlob> write;
  private final List<PathGlob> forbidden;

  /**
   * @param agentClass the agent whose permissions these are, for messages
   * @param planeRoot the plane root; it need not exist yet (every path is refused until it does)
   */
  public PathPolicy(String agentClass, Path planeRoot, Permissions permissions) {
    this.agentClass = Objects.requireNonNull(agentClass, "agentClass");
    this.root = Objects.requireNonNull(planeRoot, "planeRoot").toAbsolutePath().normalize();
    Objects.requireNonNull(permissions, "permissions");
    this.read = globs(permissions.read());
    this.write = globs(permissions.write());
    this.forbidden = globs(permissions.forbidden());
  }

  /** The policy of an agent's configured permissions. */
  public static PathPolicy forAgent(AgentConfig agent, Path planeRoot) {
    return new PathPolicy(agent.agentClass(), planeRoot, agent.permissions());
  }

  public Path root() {
    return root;
  }

  public String agentClass() {
    return agentClass;
  }

  /**
   * A path as checked: the plane root's real path, the path below it with every link resolved
   * ({@code /}-separated, never with {@code ..}; empty for the root itself), the path as requested
   * once normalized (links not resolved), and the request itself.
   */
  public record Checked(Path realRoot, String realRelative, String lexicalRelative, String requested) {
    /** The real path: the root joined with {@link #realRelative}. */
    public Path path() {
      return realRelative.isEmpty() ? realRoot : realRoot.resolve(realRelative);
    }
  }

  /**
   * The real path of a file the agent may read. The file need not exist (the caller reports
   * that), but every part of the path that exists has been resolved and checked.
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Path resolveForRead(String requested) {
    return checkRead(requested).path();
  }

  /**
   * As {@link #resolveForRead}, keeping the real root and relative path apart so the file can be
   * opened below the root's directory handle ({@link NoFollowOpen}).
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Checked checkRead(String requested) {
    return resolve(requested, Access.READ);
  }

  /**
   * The real path of a file the agent may write. Agents with no write globs (ADMIN and RESIDENT
   * as shipped) are refused every path.
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Path resolveForWrite(String requested) {
    return checkWrite(requested).path();
  }

  /**
   * As {@link #resolveForWrite}, keeping the real root and relative path apart so the file can be
   * written below the root's directory handle ({@link NoFollowOpen#inParent}).
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Checked checkWrite(String requested) {
    return resolve(requested, Access.WRITE);
  }

  /**
   * The path of a file a tool reads ({@code write} false) or writes: every rule of
   * {@link #checkRead} or {@link #checkWrite}, and never a ledger file ({@link #refuseLedgerFiles}).
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  Checked checkFile(String requested, PlaneLayout layout, boolean write) {
    Checked checked = write ? checkWrite(requested) : checkRead(requested);
    refuseLedgerFiles(checked, layout, write);
    return checked;
  }

  /** A read refusal in the form of every other: the path, the rule's code and why. */
  PathRefusedException refuseRead(PathRefusal refusal, String requested, String why) {
    return refuse(refusal, Access.READ, requested, why);
  }

  /** A write refusal in the form of every other: the path, the rule's code and why. */
  PathRefusedException refuseWrite(PathRefusal refusal, String requested, String why) {
    return refuse(refusal, Access.WRITE, requested, why);
  }

  /**
   * Refuses a checked path that is, or resolves to, a tier's ledger directory or a file in it
   * ({@link PlaneLayout#ledgerDirectory}: the ledger, its {@code .head}, {@code .torn-*} and
   * {@code .quarantine-*} files), for reading and writing alike, whatever the agent's globs say:
   * ledgers hold every session's records and only the plane appends to them.
   *
   * @param write whether the path is to be written (the message says which tool may do what)
   * @throws PathRefusedException ({@link PathRefusal#LEDGER_FILE})
   */
  void refuseLedgerFiles(Checked checked, PlaneLayout layout, boolean write) {
    Access access = write ? Access.WRITE : Access.READ;
    for (String rel : new String[] {checked.lexicalRelative(), checked.realRelative()}) {
      for (Tier tier : Tier.values()) {
        String dir = slashed(layout.root().relativize(layout.ledgerDirectory(tier)));
        if (isAtOrBelow(rel, dir)) {
          String via = rel.equals(checked.lexicalRelative()) ? "it"
              : "it resolves (through a symbolic link) to '" + quote(rel) + "', which";
          String instead = write
              ? "ledgers are append-only, hash-chained records that only the plane itself writes; write_file never "
                  + "writes them, for any agent"
              : "ledgers hold every session's records and are never read with read_file, by any agent. Use "
                  + "query_ledger, which returns what this agent may see";
          throw refuse(PathRefusal.LEDGER_FILE, access, checked.requested(), via + " is in the " + tier
              + " ledger directory " + dir + "/; " + instead);
        }
      }
    }
  }

  /** Whether {@code rel} is {@code dir} or below it, ignoring letter case (some file systems do). */
  private static boolean isAtOrBelow(String rel, String dir) {
    String r = rel.toLowerCase(Locale.ROOT);
    String d = dir.toLowerCase(Locale.ROOT);
    return r.equals(d) || r.startsWith(d + "/");
  }

  private Checked resolve(String requested, Access access) {
    String rel = checkSyntax(requested, access);
    List<PathGlob> allowed = access == Access.READ ? read : write;
    if (allowed.isEmpty()) {
      throw refuse(PathRefusal.NOT_PERMITTED, access, requested,
          "agent " + agentClass + " has no " + access.verb + " permission at all (its " + access.verb
              + " globs are empty)");
    }
    Path lexical;
    try {
      lexical = root.resolve(rel).normalize();
    } catch (InvalidPathException e) {
      throw refuse(PathRefusal.UNRESOLVABLE, access, requested, "it is not a valid path name");
    }
    if (!lexical.startsWith(root)) {
      throw refuse(PathRefusal.OUTSIDE_ROOT, access, requested, "it lies outside the plane root");
    }
    String lexicalRel = slashed(root.relativize(lexical));
    checkGlobs(lexicalRel, access, requested, allowed, null);
    RealPathWalk.Resolved real = RealPathWalk.resolve(root, lexicalRel,
        (refusal, why) -> refuse(refusal, access, requested, why));
    if (!real.relative().equals(lexicalRel)) {
      checkGlobs(real.relative(), access, requested, allowed, real.relative());
    }
    return new Checked(real.realRoot(), real.relative(), lexicalRel, requested);
  }

  /** The request as a relative path with {@code /} separators, or a refusal of its form. */
  private String checkSyntax(String requested, Access access) {
    if (requested == null || requested.isBlank()) {
      throw refuse(PathRefusal.EMPTY, access, "", "the path is empty; give a path relative to the plane root");
    }
    if (requested.indexOf('\0') >= 0) {
      throw refuse(PathRefusal.NUL_BYTE, access, requested, "it contains a NUL character");
    }
    if (requested.startsWith("/") || requested.startsWith("\\") || DRIVE_LETTER.matcher(requested).matches()) {
      throw refuse(PathRefusal.ABSOLUTE, access, requested,
          "it is absolute; give a path relative to the plane root, e.g. README.md");
    }
    for (String segment : SEPARATORS.split(requested)) {
      if (segment.equals("..")) {
        throw refuse(PathRefusal.PARENT_SEGMENT, access, requested,
            "it has a '..' segment; paths may not climb out of a directory");
      }
    }
    return requested;
  }

  /** Secret names, then forbidden globs, then the read or write globs, in that order. */
  private void checkGlobs(String rel, Access access, String requested, List<PathGlob> allowed, String resolvedTo) {
    String via = resolvedTo == null ? "it" : "it resolves (through a symbolic link) to '" + quote(resolvedTo) + "', which";
    Optional<SecretFileNames.Match> secret = SecretFileNames.match(rel);
    if (secret.isPresent()) {
      SecretFileNames.Match m = secret.get();
      throw refuse(PathRefusal.SECRET, access, requested, via + " looks like a secret file (" + m.rule().kind()
          + ": '" + quote(m.matched()) + "' matches '" + m.rule().glob() + "'); secret files are never read or "
          + "written, whatever the agent's globs say");
    }
    Optional<PathGlob> forbiddenBy = firstMatch(forbidden, rel);
    if (forbiddenBy.isPresent()) {
      throw refuse(PathRefusal.FORBIDDEN, access, requested, via + " matches forbidden glob '" + forbiddenBy.get()
          + "' of agent " + agentClass + ", and forbidden globs win over " + access.verb + " globs. "
          + access.listLabel + ": " + join(allowed));
    }
    if (firstMatch(allowed, rel).isEmpty()) {
      throw refuse(PathRefusal.NOT_PERMITTED, access, requested, via + " matches none of agent " + agentClass
          + "'s " + access.verb + " globs. " + access.listLabel + ": " + join(allowed));
    }
  }

  private PathRefusedException refuse(PathRefusal refusal, Access access, String requested, String why) {
    return new PathRefusedException(refusal, access.verb + " of '" + quote(requested) + "' (" + RELATIVE_TO
        + ") refused (" + refusal.code() + "): " + why);
  }

  /** The path as it may appear in a message: control characters escaped, bounded in length. */
  static String quote(String path) {
    return BoundedText.quote(path, MAX_QUOTED_PATH_CHARS);
  }

  static String slashed(Path relative) {
    return relative.toString().replace('\\', '/');
  }

  private static Optional<PathGlob> firstMatch(List<PathGlob> globs, String rel) {
    return globs.stream().filter(g -> g.matches(rel)).findFirst();
  }

  private static String join(List<PathGlob> globs) {
    return globs.isEmpty() ? "(none)" : globs.stream().map(PathGlob::pattern).collect(Collectors.joining(", "));
  }

  private static List<PathGlob> globs(List<String> patterns) {
    return patterns.stream().map(PathGlob::of).toList();
  }
}
