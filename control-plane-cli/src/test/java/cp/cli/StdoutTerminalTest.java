package cp.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What counts as a terminal for chat's live replies, by what Linux's /proc/self/fd/1 links to. */
class StdoutTerminalTest {
  @Test
  void terminals_areTtyDevices_pipesAndFilesAreNot() {
    assertTrue(StdoutTerminal.isTerminalDevice("/dev/pts/3"));
    assertTrue(StdoutTerminal.isTerminalDevice("/dev/tty1"));
    assertFalse(StdoutTerminal.isTerminalDevice("pipe:[123456]"));
    assertFalse(StdoutTerminal.isTerminalDevice("/home/me/out.txt"));
    assertFalse(StdoutTerminal.isTerminalDevice("/dev/null"));
    assertFalse(StdoutTerminal.isTerminalDevice("socket:[42]"));
  }
}
