package cp.tools;

import cp.contracts.AgentConfig;
import cp.contracts.Permissions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
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
 * Secret-looking names ({@link #SECRET_NAME_GLOBS}) are refused whatever the globs say. These
 * are the escapes of CVE-2025-53109/53110 (symlink and prefix tricks in a file-server tool).
 *
 * <p>What remains: a link swapped in between this check and the tool's open. Tools open the
 * returned real path without following a final link, which narrows that window to the parents.
 */
public final class PathPolicy {
  /**
   * Names that are secrets by default: a path with any segment matching one of these is refused
   * for read and write, whatever the agent's globs say. Keys and credentials have no business in
   * a model's context, and a misconfigured read glob must not be enough to expose them.
   */
  public static final List<String> SECRET_NAME_GLOBS = List.of(
      ".env", ".env.*", "*.key", "*.pem", "*.p12", "*.pfx", "*.jks", "*.keystore",
      "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
      ".netrc", ".pgpass", ".git-credentials", ".ssh", ".gnupg");

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
  private final List<PathGlob> secrets;

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
    this.secrets = globs(SECRET_NAME_GLOBS);
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
   * The real path of a file the agent may read. The file need not exist (the caller reports
   * that), but every part of the path that exists has been resolved and checked.
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Path resolveForRead(String requested) {
    return resolve(requested, Access.READ);
  }

  /**
   * The real path of a file the agent may write. Agents with no write globs (ADMIN and RESIDENT
   * as shipped) are refused every path.
   *
   * @throws PathRefusedException naming the rule that refused the path
   */
  public Path resolveForWrite(String requested) {
    return resolve(requested, Access.WRITE);
  }

  private Path resolve(String requested, Access access) {
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
    return real.path();
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
    for (String segment : rel.split("/")) {
      Optional<PathGlob> secret = firstMatch(secrets, segment);
      if (secret.isPresent()) {
        throw refuse(PathRefusal.SECRET, access, requested, via + " has a secret-looking name ('" + quote(segment)
            + "' matches '" + secret.get() + "'); secret files are refused whatever the agent's globs say");
      }
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
    return new PathRefusedException(refusal, access.verb + " of '" + quote(requested) + "' refused ("
        + refusal.code() + "): " + why);
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
