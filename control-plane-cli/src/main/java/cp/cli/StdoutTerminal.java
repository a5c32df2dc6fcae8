package cp.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process's standard output is a terminal: {@code cpctl chat} prints a reply's live
 * text only there (piped, text the turn later withdraws would stay in what a script reads).
 *
 * <p>JDK 17's {@link System#console()} is there only when standard input and output are both
 * terminals, so it cannot tell {@code printf … | cpctl chat} (a terminal to read) from {@code cpctl
 * chat > file}. On Linux the descriptor's link in {@code /proc/self/fd} names the device; where
 * there is none, only a console counts, which errs towards printing each reply when it is done.
 */
final class StdoutTerminal {
  /** Where Linux shows what file descriptor 1 is. */
  static final Path FD1 = Path.of("/proc/self/fd/1");

  private StdoutTerminal() {}

  static boolean isTerminal() {
    if (System.console() != null) {
      return true;
    }
    try {
      return isTerminalDevice(Files.readSymbolicLink(FD1).toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /** A pseudo-terminal or a tty device, by the path a descriptor links to ({@code pipe:[…]}, a file: no). */
  static boolean isTerminalDevice(String linkTarget) {
    return linkTarget.startsWith("/dev/pts/") || linkTarget.startsWith("/dev/tty") || linkTarget.equals("/dev/console");
  }
}
