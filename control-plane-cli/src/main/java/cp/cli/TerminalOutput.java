package cp.cli;

import cp.model.DisplayText;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard output when it is a terminal: every text printed passes {@link DisplayText#forTerminal},
 * so a model's reply, a tool's result or a ledger entry cannot send the terminal escape sequences
 * (retitle the window, clear the screen) or reverse a line with a bidi override. Output to a pipe
 * or a file is left exactly as it is. Covers {@code print}/{@code println} of strings and objects,
 * the ways the commands write text.
 */
final class TerminalOutput extends PrintStream {
  private TerminalOutput(PrintStream out) {
    super(out, true, StandardCharsets.UTF_8);
  }

  /** {@code out}, escaping what would act on a terminal. */
  static PrintStream over(PrintStream out) {
    return new TerminalOutput(out);
  }

  @Override
  public void print(String s) {
    super.print(DisplayText.forTerminal(s));
  }

  @Override
  public void print(Object o) {
    print(String.valueOf(o));
  }

  @Override
  public void println(Object o) {
    println(String.valueOf(o));
  }
}
