package cp.e2e;

import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * A whole plane, for the whole class, whose provider is a {@link FaultyAnthropic} on a local
 * {@link MockWebServer}; the model's faults are reset before each test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FaultyAnthropicPlaneTest {
  final FaultyAnthropic model = new FaultyAnthropic();
  final MockWebServer server = new MockWebServer();
  PlaneFixture plane;

  /** Starts the fake model, then a plane under {@code home} that calls it, with {@code extra} settings. */
  void startPlane(Path home, Map<String, String> extra) throws IOException {
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    plane = PlaneFixture.start(ProviderFaultsEndToEndTest.anthropicEnv(home, "http://127.0.0.1:" + server.getPort(),
        extra), PlaneRuntime::builtinTools);
  }

  @AfterAll
  void stopPlane() {
    if (plane != null) {
      plane.close();
    }
    server.close();
  }

  @BeforeEach
  void resetModel() {
    model.reset();
  }
}
