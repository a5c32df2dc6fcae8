package cp.tools;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Opens a file below the plane root for reading without following any symbolic link, so there is
 * no window between checking a path and opening it.
 *
 * <p>{@link PathPolicy} resolves and checks a path; a directory on it can still be swapped for a
 * link to {@code /etc} before the file is opened, and an open by path name would follow it
 * (issue 11 measured 2,389 escapes in 20,000 reads). Here the file is reached from a handle on
 * the real plane root, one directory handle per path component, each opened relative to the
 * previous one with {@link LinkOption#NOFOLLOW_LINKS} ({@code openat} with {@code O_NOFOLLOW});
 * the file itself is opened the same way. The path given is the real path the policy checked,
 * which has no link in it, so a link met here was put there after the check: the read is refused
 * ({@link PathRefusal#CHANGED}), never redirected. Links inside the root that the policy allowed
 * keep working, because the policy hands over the path they resolve to.
 *
 * <p>This needs {@link SecureDirectoryStream} (Linux, macOS, the BSDs). Where the default file
 * system lacks it, every read is refused ({@link PathRefusal#NO_SAFE_OPEN}) rather than falling
 * back to the racy open by name.
 *
 * <p>What remains: the link-count check for hard links reads the name's attributes just before
 * the open (Java cannot ask an open channel for its link count), so a hard link swapped in between
 * those two calls is not caught; creating a hard link to another user's file needs that file to be
 * readable and writable by the attacker on Linux ({@code fs.protected_hardlinks}). A directory
 * moved out of the plane root while a read walks through it is read where it now is. Stateless;
 * safe for concurrent use.
 */
final class NoFollowOpen {
  /** What was found at the path: an open file, nothing, or something that is not a regular file. */
  sealed interface Opened permits File, Missing, NotAFile {}

  /** The regular file, open for reading; the caller closes it. */
  record File(SeekableByteChannel channel, long size) implements Opened {}

  /** Nothing at the path (or a part of it is not a directory). */
  record Missing() implements Opened {}

  /** @param what {@code a directory} or {@code not a regular file} */
  record NotAFile(String what) implements Opened {}

  /** The unix view's link count, with the file key to tell that the name still names the same file. */
  private static final String LINK_COUNT_AND_KEY = "unix:nlink,fileKey";

  /** Open options of the file itself: LinkOption is an OpenOption, so NOFOLLOW_LINKS goes in the set. */
  private static final Set<OpenOption> READ_NO_FOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

  private NoFollowOpen() {}

  /**
   * @param realRoot the plane root's real path (from {@link PathPolicy.Checked#realRoot})
   * @param relative the checked real path below it, {@code /}-separated
   * @param refuse builds the refusal for a rule and a reason (the policy's message form)
   * @throws PathRefusedException when a link appeared on the way, a file has several hard links, or
   *     the platform cannot open without following links
   * @throws IOException when the file system fails otherwise
   */
  static Opened open(Path realRoot, String relative, BiFunction<PathRefusal, String, PathRefusedException> refuse)
      throws IOException {
    String[] names = components(relative, refuse);
    if (names.length == 0) {
      return new NotAFile("a directory");
    }
    Deque<DirectoryStream<Path>> handles = new ArrayDeque<>();
    try {
      DirectoryStream<Path> rootStream = Files.newDirectoryStream(realRoot);
      handles.push(rootStream);
      if (!(rootStream instanceof SecureDirectoryStream<Path> dir)) {
        throw refuse.apply(PathRefusal.NO_SAFE_OPEN, "this platform's file system cannot open a file without "
            + "following symbolic links (no SecureDirectoryStream), so read_file reads nothing rather than risk "
            + "reading outside the plane root");
      }
      dir = walkToParent(realRoot, names, dir, handles, refuse);
      if (dir == null) {
        return new Missing();
      }
      Path name = realRoot.getFileSystem().getPath(names[names.length - 1]);
      BasicFileAttributes a = attributes(dir, name);
      if (a == null) {
        return new Missing();
      }
      if (a.isSymbolicLink()) {
        throw changed(refuse, relative);
      }
      if (a.isDirectory()) {
        return new NotAFile("a directory");
      }
      if (!a.isRegularFile()) {
        return new NotAFile("not a regular file");
      }
      checkSingleLink(realRoot.resolve(String.join("/", names)), a.fileKey(), refuse, relative);
      SeekableByteChannel ch;
      try {
        ch = dir.newByteChannel(name, READ_NO_FOLLOW);
      } catch (NoSuchFileException e) {
        return new Missing();
      } catch (FileSystemException e) {
        throw linkOr(e, dir, name, refuse, relative);
      }
      try {
        BasicFileAttributes after = attributes(dir, name);
        if (after == null || (a.fileKey() != null && !a.fileKey().equals(after.fileKey()))) {
          throw changed(refuse, relative);
        }
        return new File(ch, ch.size());
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
    } finally {
      for (DirectoryStream<Path> h : handles) {
        h.close();
      }
    }
  }

  /**
   * Walks from the root's handle to the directory that holds the last of {@code names}, one
   * no-follow handle per component (each pushed on {@code handles} for the caller to close).
   *
   * @return the parent's handle, or null when a directory on the way does not exist
   */
  private static SecureDirectoryStream<Path> walkToParent(Path realRoot, String[] names, SecureDirectoryStream<Path> dir,
      Deque<DirectoryStream<Path>> handles, BiFunction<PathRefusal, String, PathRefusedException> refuse)
      throws IOException {
    String walked = "";
    for (int i = 0; i < names.length - 1; i++) {
      Path name = realRoot.getFileSystem().getPath(names[i]);
      walked = walked.isEmpty() ? names[i] : walked + "/" + names[i];
      BasicFileAttributes a = attributes(dir, name);
      if (a == null || (!a.isDirectory() && !a.isSymbolicLink())) {
        return null;
      }
      if (a.isSymbolicLink()) {
        throw changed(refuse, walked);
      }
      try {
        dir = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException | NotDirectoryException e) {
        return null;
      } catch (FileSystemException e) {
        throw linkOr(e, dir, name, refuse, walked);
      }
      handles.push(dir);
    }
    return dir;
  }

  /** What a writer does in the parent directory of the checked path, reached without following links. */
  interface InParent<T> {
    /**
     * @param dir the parent directory's handle (open operations relative to it follow no link when
     *     asked not to)
     * @param name the file's name in it
     * @param existing the entry's own attributes (a link reported as a link), or null when there is none
     */
    T apply(SecureDirectoryStream<Path> dir, Path name, BasicFileAttributes existing) throws IOException;
  }

  /**
   * Runs {@code action} in the parent directory of {@code relative}, reached from the real root's
   * handle one no-follow handle at a time, as {@link #open} does: a directory swapped for a link
   * after the check is refused ({@link PathRefusal#CHANGED}), so a write cannot be redirected.
   *
   * @return the action's result, or empty when a directory on the way does not exist
   * @throws PathRefusedException when a link appeared on the way, the path is the root, or the
   *     platform cannot open without following links
   */
  static <T> java.util.Optional<T> inParent(Path realRoot, String relative,
      BiFunction<PathRefusal, String, PathRefusedException> refuse, InParent<T> action) throws IOException {
    String[] names = components(relative, refuse);
    if (names.length == 0) {
      throw refuse.apply(PathRefusal.UNRESOLVABLE, "it is the plane root itself, a directory, not a file");
    }
    Deque<DirectoryStream<Path>> handles = new ArrayDeque<>();
    try {
      DirectoryStream<Path> rootStream = Files.newDirectoryStream(realRoot);
      handles.push(rootStream);
      if (!(rootStream instanceof SecureDirectoryStream<Path> root)) {
        throw refuse.apply(PathRefusal.NO_SAFE_OPEN, "this platform's file system cannot open a file without "
            + "following symbolic links (no SecureDirectoryStream), so nothing is written rather than risk "
            + "writing outside the plane root");
      }
      SecureDirectoryStream<Path> dir = walkToParent(realRoot, names, root, handles, refuse);
      if (dir == null) {
        return java.util.Optional.empty();
      }
      Path name = realRoot.getFileSystem().getPath(names[names.length - 1]);
      BasicFileAttributes existing = attributes(dir, name);
      if (existing != null && existing.isSymbolicLink()) {
        throw changed(refuse, relative);
      }
      return java.util.Optional.ofNullable(action.apply(dir, name, existing));
    } finally {
      for (DirectoryStream<Path> h : handles) {
        h.close();
      }
    }
  }

  /** The names to open one after another; the checked path never has {@code ..}, and one here is refused. */
  private static String[] components(String relative, BiFunction<PathRefusal, String, PathRefusedException> refuse) {
    List<String> names = new ArrayList<>();
    for (String n : relative.split("/")) {
      if (n.equals("..")) {
        throw refuse.apply(PathRefusal.PARENT_SEGMENT, "it has a '..' segment");
      }
      if (!n.isEmpty() && !n.equals(".")) {
        names.add(n);
      }
    }
    return names.toArray(String[]::new);
  }

  /** The entry's own attributes (a link is reported as a link), or null when there is no such entry. */
  private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name) throws IOException {
    try {
      return dir.getFileAttributeView(name, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    } catch (NoSuchFileException | NotDirectoryException e) {
      return null;
    }
  }

  /** An open without following links failed: a link there now (ELOOP) is a change; anything else is rethrown. */
  private static IOException linkOr(FileSystemException e, SecureDirectoryStream<Path> dir, Path name,
      BiFunction<PathRefusal, String, PathRefusedException> refuse, String shown) throws IOException {
    BasicFileAttributes now = attributes(dir, name);
    if ((now != null && now.isSymbolicLink()) || metALink(e)) {
      // ELOOP from an open that follows no link: the name was a link when it was opened, even if a
      // swapping process has put a directory back by now.
      throw changed(refuse, shown);
    }
    return e;
  }

  /** Whether a failed no-follow open says it met a symbolic link (ELOOP, as the JDK reports it on Linux). */
  private static boolean metALink(FileSystemException e) {
    String why = e.getReason() != null ? e.getReason() : e.getMessage();
    return why != null && why.toLowerCase(java.util.Locale.ROOT).contains("symbolic link");
  }

  private static PathRefusedException changed(BiFunction<PathRefusal, String, PathRefusedException> refuse,
      String shown) {
    return refuse.apply(PathRefusal.CHANGED, "'" + PathPolicy.quote(shown) + "' became a symbolic link after the "
        + "path was checked; file tools follow no link they have not checked, so nothing was read or written (try "
        + "again)");
  }

  /**
   * Refuses a regular file with several hard links (another name may lie outside the root). The
   * link count is only readable by path name, so the file found by name must be the one the
   * directory handle sees ({@code expected}, its file key); otherwise the tree changed.
   */
  private static void checkSingleLink(Path byName, Object expected,
      BiFunction<PathRefusal, String, PathRefusedException> refuse, String shown) {
    Map<String, Object> unix;
    try {
      unix = Files.readAttributes(byName, LINK_COUNT_AND_KEY, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return; // no link count on this file system: as RealPathWalk, such files pass
    }
    if (expected != null && !expected.equals(unix.get("fileKey"))) {
      throw changed(refuse, shown);
    }
    if (unix.get("nlink") instanceof Number n && n.intValue() > 1) {
      throw refuse.apply(PathRefusal.HARD_LINK, "the file has " + n.intValue() + " hard links, and another of "
          + "its names may lie outside the plane root");
    }
  }
}
