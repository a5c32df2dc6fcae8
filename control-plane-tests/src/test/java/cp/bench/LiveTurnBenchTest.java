package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P8 (issue 24) runs: a few live turns on the embedded service, each reply's first delta seen by
 * the client; reports time to first token against its target and the tail. Asserts no timing (the
 * benchmark's report does); prints what it measured.
 */
class LiveTurnBenchTest {
  @TempDir Path home;

  @Test
  void p8_measuresTimeToFirstTokenAndTheTail() throws Exception {
    Map<String, String> env = BenchEnv.of(Map.of(), home, URI.create("http://127.0.0.1:9"), LiveTurnBench.QUEUE);

    List<Measure> m = new LiveTurnBench(env, 5).run();

    assertEquals(3, m.size());
    m.forEach(x -> System.out.println("P8: " + x.what() + " = " + x.value() + " (" + x.status() + "; " + x.detail()
        + ")"));
    assertEquals(Measure.Id.P8, m.get(0).id());
    assertTrue(m.get(0).value().endsWith(" ms") && !m.get(0).value().startsWith("-"), m.get(0).value());
  }
}
