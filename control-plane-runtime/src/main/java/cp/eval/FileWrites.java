package cp.eval;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a suite or report file whole or not at all: to a temporary file in the same directory,
 * then moved over the target, so a failed write never leaves half a file behind. Stateless.
 */
final class FileWrites {
  private FileWrites() {}

  /**
   * Replaces {@code file} with {@code bytes}.
   *
   * @throws SuiteFileException naming the file and why, when it cannot be written
   */
  static void replace(Path file, byte[] bytes) {
    String name = file.toString();
    Path target = file.toAbsolutePath();
    Path dir = checkWritable(file);
    Path temp = null;
    try {
      // Created as any new file is (the umask decides its mode), not 0600 as createTempFile makes it.
      temp = dir.resolve("." + target.getFileName() + "." + java.util.UUID.randomUUID() + ".tmp");
      Files.write(temp, bytes, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      temp = null;
    } catch (IOException e) {
      throw new SuiteFileException(name, "", "cannot be written (" + why(e) + "); nothing was written", e);
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // the write already failed and says so; a stray temp file is all that is left
        }
      }
    }
  }

  /**
   * Checks that {@code file} could be written now, before the work that produces it (an eval run's
   * cases) is done: its directory exists and is writable, and it is not a directory. Returns the directory.
   *
   * @throws SuiteFileException naming the file and why
   */
  static Path checkWritable(Path file) {
    String name = file.toString();
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new SuiteFileException(name, "", "cannot be written: its directory " + dir + " does not exist");
    }
    if (Files.isDirectory(target)) {
      throw new SuiteFileException(name, "", "cannot be written: it is a directory");
    }
    if (!Files.isWritable(dir)) {
      throw new SuiteFileException(name, "", "cannot be written: its directory " + dir + " is not writable");
    }
    return dir;
  }

  /** An I/O failure in words: the JDK's exceptions often carry only a path as their message. */
  static String why(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? "an I/O error" : e.getMessage();
  }

}
