package cp.bench;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The bench's own jar carries a logging configuration: without one logback logs at DEBUG to stdout
 * (every workflow task of the Temporal SDK), which costs the orchestrated side CPU in every ratio.
 */
class BenchLoggingTest {
  @Test
  void theBenchJarLogsWarningsOnly_onStderr() throws Exception {
    try (InputStream in = Bench.class.getResourceAsStream("/logback.xml")) {
      assertNotNull(in, "no logback.xml in the bench's resources");
      String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(xml.contains("<root level=\"WARN\">") && xml.contains("<target>System.err</target>"), xml);
      assertTrue(xml.contains("name=\"io.temporal\" level=\"${CP_TEMPORAL_LOG_LEVEL:-ERROR}\""), xml);
    }
  }
}
