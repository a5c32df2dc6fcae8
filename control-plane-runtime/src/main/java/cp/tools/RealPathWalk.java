package cp.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * Resolves a relative path under the plane root one segment at a time, following each symbolic
 * link and checking that it stays inside the root's real path.
 *
 * <p>Checking only the final {@code toRealPath} is not enough when the file does not exist yet
 * (a write, or a read that will report not-found): a parent link can still point outside, and a
 * dangling link can be created through. So every existing segment is inspected without following
 * links; a link is resolved and compared, by path components, with the real root.
 */
final class RealPathWalk {
  /** Unix attribute holding a file's hard-link count. */
  static final String LINK_COUNT_ATTRIBUTE = "unix:nlink";

  /**
   * The real path, the real plane root, and the path relative to that root with {@code /}
   * separators (empty for the root itself; never with a {@code ..} segment).
   */
  record Resolved(Path path, Path realRoot, String relative) {}

  private RealPathWalk() {}

  /**
   * @param root the plane root (absolute, normalized; it may itself be reached through a link)
   * @param relative the normalized relative path, {@code /}-separated, with no {@code ..}
   * @param refuse builds the exception for a refusal and a reason
   */
  static Resolved resolve(Path root, String relative, BiFunction<PathRefusal, String, PathRefusedException> refuse) {
    Path realRoot;
    try {
      realRoot = root.toRealPath();
    } catch (IOException e) {
      throw refuse.apply(PathRefusal.UNRESOLVABLE, "the plane root does not exist or cannot be read; "
          + "check CP_HOME");
    }
    if (!Files.isDirectory(realRoot)) {
      throw refuse.apply(PathRefusal.UNRESOLVABLE, "the plane root is not a directory; check CP_HOME");
    }
    Path current = realRoot;
    boolean exists = true;
    for (String segment : relative.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      Path next = current.resolve(segment);
      if (!exists) {
        current = next;
        continue;
      }
      if (Files.isSymbolicLink(next)) {
        current = followLink(realRoot, next, refuse);
      } else if (Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
        current = next;
      } else {
        exists = false;
        current = next;
      }
    }
    if (exists) {
      current = realPathInside(realRoot, current, refuse);
      checkSingleLink(current, refuse);
    }
    return new Resolved(current, realRoot, PathPolicy.slashed(realRoot.relativize(current)));
  }

  private static Path followLink(Path realRoot, Path link, BiFunction<PathRefusal, String, PathRefusedException> refuse) {
    String shown = PathPolicy.quote(PathPolicy.slashed(realRoot.relativize(link)));
    Path target;
    try {
      target = link.toRealPath();
    } catch (NoSuchFileException e) {
      throw refuse.apply(PathRefusal.DANGLING_SYMLINK, "'" + shown + "' is a symbolic link to something that "
          + "does not exist, so where it leads cannot be checked");
    } catch (IOException e) {
      throw refuse.apply(PathRefusal.UNRESOLVABLE, "the symbolic link '" + shown + "' cannot be resolved ("
          + e.getClass().getSimpleName() + ")");
    }
    if (!target.startsWith(realRoot)) {
      throw refuse.apply(PathRefusal.SYMLINK_ESCAPE, "'" + shown + "' is a symbolic link that leads outside the "
          + "plane root");
    }
    return target;
  }

  /** The real path of an existing file, which must still be inside the real root. */
  private static Path realPathInside(Path realRoot, Path path, BiFunction<PathRefusal, String, PathRefusedException> refuse) {
    Path real;
    try {
      real = path.toRealPath();
    } catch (IOException e) {
      throw refuse.apply(PathRefusal.UNRESOLVABLE, "it cannot be resolved (" + e.getClass().getSimpleName() + ")");
    }
    if (!real.startsWith(realRoot)) {
      throw refuse.apply(PathRefusal.OUTSIDE_ROOT, "its real path lies outside the plane root");
    }
    return real;
  }

  /**
   * A regular file with several hard links may be the same file as one outside the root, and
   * no path check can tell; such files are refused. File systems without a link count pass.
   */
  private static void checkSingleLink(Path real, BiFunction<PathRefusal, String, PathRefusedException> refuse) {
    if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Object count;
    try {
      count = Files.getAttribute(real, LINK_COUNT_ATTRIBUTE, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return;
    }
    if (count instanceof Number n && n.intValue() > 1) {
      throw refuse.apply(PathRefusal.HARD_LINK, "the file has " + n.intValue() + " hard links, and another of "
          + "its names may lie outside the plane root");
    }
  }
}
