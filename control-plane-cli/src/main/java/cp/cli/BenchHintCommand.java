package cp.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code cpctl bench} in the product jar: the benchmark is not in it (issue 21: the product ships
 * without benchmark code or test databases). {@code bin/cpctl bench} runs the benchmark's own jar;
 * this command, reached only when the product jar is started directly, says so.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "The overhead benchmark ships in its own jar: run 'bin/cpctl bench' (see README, Performance).")
final class BenchHintCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  /** The benchmark's jar, as the build writes it. */
  static final String BENCH_JAR = "control-plane-bench/target/control-plane-bench.jar";

  /** The benchmark's options, whatever they are: the answer is the same. */
  @Unmatched
  java.util.List<String> benchArguments;

  @Override
  public Integer call() {
    throw new Cpctl.UsageException("the benchmark is not part of the product jar: run 'bin/cpctl bench "
        + "[options]' from the source tree (it builds " + BENCH_JAR + " on first use), or 'java -jar "
        + BENCH_JAR + " [options]'");
  }
}
