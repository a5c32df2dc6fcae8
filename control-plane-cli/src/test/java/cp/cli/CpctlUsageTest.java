package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Usage: every command answers --help, and bad command lines are refused in one line with exit 2. */
class CpctlUsageTest {
  @TempDir Path home;

  /** Every command path in cpctl's tree ("", "chat", "session start", ...), read from picocli itself. */
  static Stream<String> commandPaths() {
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
    CommandLine root = new CommandLine(new Cpctl(Map.of(), new ByteArrayInputStream(new byte[0]), sink, sink));
    List<String> paths = new ArrayList<>();
    collect(root, "", paths);
    return paths.stream();
  }

  private static void collect(CommandLine cl, String path, List<String> out) {
    out.add(path);
    cl.getSubcommands().forEach((name, sub) -> {
      if (sub.getCommandName().equals(name)) {
        collect(sub, (path + " " + name).trim(), out);
      }
    });
  }

  @Test
  void theCommandTreeHoldsEveryCommandOfTheIssue() {
    List<String> paths = commandPaths().toList();
    for (String expected : List.of("chat", "dev-server", "worker", "session start", "session end", "turn", "sessions",
        "show", "replay", "ledger query", "ledger verify", "ledger repair", "config")) {
      assertTrue(paths.contains(expected), () -> "missing command '" + expected + "' in " + paths);
    }
  }

  @ParameterizedTest(name = "cpctl {0} --help")
  @MethodSource("commandPaths")
  void everyCommand_answersHelpWithUsageAndExit0(String path) {
    List<String> args = new ArrayList<>(path.isEmpty() ? List.of() : List.of(path.split(" ")));
    args.add("--help");
    var r = run(CliHarness.env(home), args.toArray(String[]::new));
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("Usage: cpctl" + (path.isEmpty() ? "" : " " + path)), r::describe);
    assertEquals("", r.err(), r::describe);
  }

  @Test
  void unknownCommand_isRefusedInOneLineWithExit2() {
    var r = run(CliHarness.env(home), "frobnicate");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("frobnicate"), r::describe);
    assertTrue(r.err().contains("--help"), () -> "the line should say where usage is\n" + r.describe());
  }

  @Test
  void unknownOption_isRefusedInOneLineWithExit2() {
    var r = run(CliHarness.env(home), "sessions", "--frobnicate");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--frobnicate"), r::describe);
  }

  @Test
  void missingRequiredOption_isRefusedInOneLineWithExit2() {
    var r = run(CliHarness.env(home), "turn", "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--session"), r::describe);
  }

  @Test
  void verbose_addsTheStackTraceThatIsOtherwiseHidden() {
    var quiet = run(CliHarness.env(home), "show", "SES-deadbeef");
    assertOneLineError(quiet, Cpctl.BAD_INPUT);
    var verbose = run(CliHarness.env(home), "show", "SES-deadbeef", "--verbose");
    assertEquals(Cpctl.BAD_INPUT, verbose.code(), verbose::describe);
    assertTrue(verbose.err().contains("at cp."), verbose::describe);
  }

  @Test
  void noArguments_printsTheCommandList() {
    var r = run(CliHarness.env(home));
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("Commands:"), r::describe);
    assertNoStackTrace(r);
  }
}
